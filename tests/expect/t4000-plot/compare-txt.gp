# perfsift plot compare: gnuplot script, data inline
set terminal dumb size 72,26 nofeed noenhanced
set output "kb.txt"
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_bars << EOD
0 200 1
1 200.2 2
EOD
$P1_err << EOD
0 200 1.5811388300841898
1 200.2 1.4404860290887933
EOD
$P1_runs << EOD
-0.23 200
-0.07 202
0.07 198
0.15 201
0.23 199
0.77 200.5
0.9299999999999999 201
1.07 199
1.15 202
1.23 198.5
EOD
$P2_bars << EOD
0 110 1
1 110.1 2
EOD
$P2_err << EOD
0 110 0.7905694150420949
1 110.1 0.7416198487095663
EOD
$P2_runs << EOD
-0.23 110
-0.07 111
0.07 109
0.15 110.5
0.23 109.5
0.77 110
0.9299999999999999 109
1.07 111
1.15 110
1.23 110.5
EOD
$P3_bars << EOD
0 60 1
1 66 2
EOD
$P3_err << EOD
0 60 0.7905694150420949
1 66 0.7905694150420949
EOD
$P3_runs << EOD
-0.23 60
-0.07 61
0.07 59
0.15 60.5
0.23 59.5
0.77 66
0.9299999999999999 67
1.07 65
1.15 66.5
1.23 65.5
EOD
$P4_bars << EOD
0 35 1
1 33 2
EOD
$P4_err << EOD
0 35 0.38078865529319617
1 33 0.38078865529319617
EOD
$P4_runs << EOD
-0.23 35
-0.07 35.5
0.07 34.5
0.15 35.2
0.23 34.8
0.77 33
0.9299999999999999 33.5
1.07 32.5
1.15 33.2
1.23 32.8
EOD
$P5_bars << EOD
0 25 1
1 25.08 2
EOD
$P5_err << EOD
0 25 0.7905694150420949
1 25.08 0.5069516742254638
EOD
$P5_runs << EOD
-0.23 25
-0.07 26
0.07 24
0.15 25.5
0.23 24.5
0.77 25.2
0.9299999999999999 25.8
1.07 24.4
1.15 25.1
1.23 24.9
EOD
unset grid
set style fill empty
set border 3
set ytics nomirror
set boxwidth 0.6
set key below left vertical noautotitle
unset key
unset xlabel
set title "kernbench.elsp-2 (s)\nbase vs patched, kernbench on m1\nbars: mean ± sample standard deviation (n-1); points: runs; change\nagainst base, * significant (Benjamini-Hochberg q < 0.05)"
set ylabel ""
set format y "%.0f"
set xrange [-0.6:1.6]
set yrange [0:238.36]
set xtics nomirror scale 0 ("base (n=5)" 0, "patched (n=5)" 1)
unset label
set label 1 "+0.1%" at 1,202 center offset 0,1 front tc rgb "black"
plot $P1_bars using 1:2 with boxes lt 1 notitle, \
     $P1_err using 1:($2-$3):(0):(2*$3) with vectors heads size 0.08,90 lc rgb "black" lw 1.5 notitle, \
     $P1_runs using 1:2 with points pt 7 ps 0.7 lc rgb "#303030" notitle
set title "kernbench.elsp-4 (s)\nbase vs patched, kernbench on m1\nbars: mean ± sample standard deviation (n-1); points: runs; change\nagainst base, * significant (Benjamini-Hochberg q < 0.05)"
set ylabel ""
set format y "%.0f"
set xrange [-0.6:1.6]
set yrange [0:130.98]
set xtics nomirror scale 0 ("base (n=5)" 0, "patched (n=5)" 1)
unset label
set label 1 "+0.1%" at 1,111 center offset 0,1 front tc rgb "black"
plot $P2_bars using 1:2 with boxes lt 1 notitle, \
     $P2_err using 1:($2-$3):(0):(2*$3) with vectors heads size 0.08,90 lc rgb "black" lw 1.5 notitle, \
     $P2_runs using 1:2 with points pt 7 ps 0.7 lc rgb "#303030" notitle
set title "kernbench.elsp-8 (s)\nbase vs patched, kernbench on m1\nbars: mean ± sample standard deviation (n-1); points: runs; change\nagainst base, * significant (Benjamini-Hochberg q < 0.05)"
set ylabel ""
set format y "%.0f"
set xrange [-0.6:1.6]
set yrange [0:79.06]
set xtics nomirror scale 0 ("base (n=5)" 0, "patched (n=5)" 1)
unset label
set label 1 "+10.0% *" at 1,67 center offset 0,1 front tc rgb "#b00000"
plot $P3_bars using 1:2 with boxes lt 1 notitle, \
     $P3_err using 1:($2-$3):(0):(2*$3) with vectors heads size 0.08,90 lc rgb "black" lw 1.5 notitle, \
     $P3_runs using 1:2 with points pt 7 ps 0.7 lc rgb "#303030" notitle
set title "kernbench.elsp-16 (s)\nbase vs patched, kernbench on m1\nbars: mean ± sample standard deviation (n-1); points: runs; change\nagainst base, * significant (Benjamini-Hochberg q < 0.05)"
set ylabel ""
set format y "%g"
set xrange [-0.6:1.6]
set yrange [0:41.89]
set xtics nomirror scale 0 ("base (n=5)" 0, "patched (n=5)" 1)
unset label
set label 1 "-5.7% *" at 1,33.5 center offset 0,1 front tc rgb "#006400"
plot $P4_bars using 1:2 with boxes lt 1 notitle, \
     $P4_err using 1:($2-$3):(0):(2*$3) with vectors heads size 0.08,90 lc rgb "black" lw 1.5 notitle, \
     $P4_runs using 1:2 with points pt 7 ps 0.7 lc rgb "#303030" notitle
set title "kernbench.elsp-32 (s)\nbase vs patched, kernbench on m1\nbars: mean ± sample standard deviation (n-1); points: runs; change\nagainst base, * significant (Benjamini-Hochberg q < 0.05)"
set ylabel ""
set format y "%g"
set xrange [-0.6:1.6]
set yrange [0:30.68]
set xtics nomirror scale 0 ("base (n=5)" 0, "patched (n=5)" 1)
unset label
set label 1 "+0.3%" at 1,25.8 center offset 0,1 front tc rgb "black"
plot $P5_bars using 1:2 with boxes lt 1 notitle, \
     $P5_err using 1:($2-$3):(0):(2*$3) with vectors heads size 0.08,90 lc rgb "black" lw 1.5 notitle, \
     $P5_runs using 1:2 with points pt 7 ps 0.7 lc rgb "#303030" notitle
