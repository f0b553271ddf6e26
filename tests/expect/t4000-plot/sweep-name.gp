# perfsift plot sweep: gnuplot script, data inline
set terminal svg size 1200,800 font "sans,12" noenhanced background "white"
set output "sweep.svg"
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_L1 << EOD
2 200 1.5811388300841898
4 110 0.7905694150420949
8 60 0.7905694150420949
16 35 0.38078865529319617
32 25 0.7905694150420949
EOD
$P1_L2 << EOD
2 200.2 1.4404860290887933
4 110.1 0.7416198487095663
8 66 0.7905694150420949
16 33 0.38078865529319617
32 25.08 0.5069516742254638
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,1 title "kernbench.elsp-N: base vs patched, kernbench on m1\nmean ± sample standard deviation (n-1) over the runs at each point"
set title ""
set ylabel "s"
set xlabel "N in kernbench.elsp-N"
set logscale x 2
set xrange [1.6:40]
set xtics nomirror ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32)
set format y "%.0f"
set yrange [15.33787781275136:210.51203880129532]
unset label
plot $P1_L1 using 1:2:3 with yerrorlines lt 1 title "base", \
     $P1_L2 using 1:2:3 with yerrorlines lt 2 title "patched"
unset multiplot
