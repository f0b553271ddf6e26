# perfsift plot sweep: gnuplot script, data inline
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
0.004364805402450088 1111 101
0.3010299956639812 2189 199
1 10528.666666666666 957.5000435160999
2 73700 6700
3.000000000000025 184250 16750
EOD
$P1_L2 << EOD
0.004364805402450088 1666.6666666666667 151.5002750272531
0.3010299956639812 3283.6666666666665 298.5001395867904
1 15793 1436
2 110550 10050
3.000000000000025 276375 25125
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,1 title "fio.read_clat_P%: base vs patched, fio-lat on m1\nmean ± sample standard deviation (n-1) over the runs at each point"
set title ""
set ylabel "ns"
set xlabel "percentile (a nines axis: 90%, 99%, 99.9% equally apart)"
unset logscale x
set xrange [-0.11546060238145292:3.119825407783928]
set xtics nomirror ("1%%" 0.004364805402450088, "50%%" 0.3010299956639812, "90%%" 1, "99%%" 2, "99.9%%" 3.000000000000025)
set format y "%.0f"
set yrange [0:316524.5]
unset label
plot $P1_L1 using 1:2:3 with yerrorlines lt 1 title "base", \
     $P1_L2 using 1:2:3 with yerrorlines lt 2 title "patched"
unset multiplot
