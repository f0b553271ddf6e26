# perfsift plot trend: gnuplot script, data inline
set termoption noenhanced
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_L1 << EOD
0 999.75 2.9860788111948193
20 999.5 3.1091263510296048
39 1000.5 3.1091263510296048
40 959.25 2.9860788111948193
50 960.25 2.9860788111948193
63 959.75 2.9860788111948193
EOD
$P1_L2 << EOD
-0.4 999.9166666666666 0
39.4 999.9166666666666 0
EOD
$P1_L3 << EOD
39.6 959.75 0
63.4 959.75 0
EOD
$P1_L4 << EOD
39.5 956.2639211888052 0
39.5 1003.6091263510297 0
EOD
$P1_L5 << EOD
0 999.75 0
20 999.5 0
39 1000.5 0
EOD
$P1_L6 << EOD
40 959.25 0
50 960.25 0
63 959.75 0
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,1 title "trend of ops\n1 change point (E-divisive, t-test p < 0.001); bars: sd (n-1); bisect 50e4933..3221d68, t-tests at 0.01"
set title "ops"
set ylabel "no unit recorded"
set xlabel "commit, in the recorded order (oldest left)"
unset logscale x
set xrange [-2.52:65.52]
set xtics nomirror ("50e4933" 0, "e27d977" 20, "7c577b5" 39, "3916307" 40, "e7715c3" 50, "3221d68" 63)
set format y "%g"
set yrange [953.896660930694:1005.9763866091408]
unset label
plot $P1_L1 using 1:2:3 with yerrorlines lt 1 title "mean +- sd per commit", \
     $P1_L2 using 1:2 with lines lc rgb "#505050" dt 2 lw 1.5 title "mean between change points", \
     $P1_L3 using 1:2 with lines lc rgb "#505050" dt 2 lw 1.5 title "", \
     $P1_L4 using 1:2 with lines lt 2 dt 3 lw 1.5 title "change at 3916307: -4.02% (p 6.5e-21)", \
     $P1_L5 using 1:2 with points lc rgb "#1a9850" pt 9 ps 2.2 title "bisect good (3)", \
     $P1_L6 using 1:2 with points lc rgb "#d73027" pt 7 ps 2.2 title "bisect bad (3)"
unset multiplot
