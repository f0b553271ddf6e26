# perfsift plot series: gnuplot script, data inline
set terminal pngcairo size 1200,800 font "sans,12" noenhanced
set output "free.png"
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_L1 << EOD
0 30000
1 25000
2 21000
EOD
$P1_L2 << EOD
0 31000
1.5 29000
3 27000
EOD
$P1_L3 << EOD
0 30000
1 28000
2 26000
EOD
$P1_L4 << EOD
0 8000
1 8000
2 8000
EOD
$P1_L5 << EOD
0 10000
1 10000
2 10000
EOD
$P1_L6 << EOD
0 12000
1 12000
2 12000
EOD
$P1_L7 << EOD
0 9000
1 9000
2 9000
EOD
$P1_L8 << EOD
0 11000
1 11000
2 11000
EOD
$P1_L9 << EOD
0 13000
1 13000
2 13000
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,1 title "zoneinfo.node0.Normal.pages.free: base vs patched\na line per run; dashed: the zone's watermarks"
set title ""
set ylabel "no unit recorded"
set xlabel "seconds since the run's first sample"
set xrange [0:*]
set autoscale xfixmax
set xtics nomirror autofreq
set format y "%.0f"
set yrange [6850:32150]
unset label
plot $P1_L1 using 1:2 with linespoints lt 1 ps 0.9 pt 7 title "base run 29", \
     $P1_L2 using 1:2 with linespoints lt 1 ps 0.9 pt 5 title "base run 30", \
     $P1_L3 using 1:2 with linespoints lt 2 ps 0.9 pt 7 title "patched run 32", \
     $P1_L4 using 1:2 with lines lc rgb "#505050" dt 2 lw 1.5 title "min watermark (base run 29)", \
     $P1_L5 using 1:2 with lines lc rgb "#505050" dt 3 lw 1.5 title "low watermark (base run 29)", \
     $P1_L6 using 1:2 with lines lc rgb "#505050" dt 4 lw 1.5 title "high watermark (base run 29)", \
     $P1_L7 using 1:2 with lines lc rgb "#505050" dt 2 lw 1.5 title "min watermark (patched run 32)", \
     $P1_L8 using 1:2 with lines lc rgb "#505050" dt 3 lw 1.5 title "low watermark (patched run 32)", \
     $P1_L9 using 1:2 with lines lc rgb "#505050" dt 4 lw 1.5 title "high watermark (patched run 32)"
unset multiplot
