# perfsift plot series: gnuplot script, data inline
set terminal pngcairo size 1200,800 font "sans,12" noenhanced
set output "vm.png"
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_L1 << EOD
0 5000
1 4900
2 4800
4 4700
EOD
$P1_L2 << EOD
0 6000
2 6100
EOD
$P2_L1 << EOD
0.5 200
1.5 100
3 200
EOD
$P2_L2 << EOD
1 300
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,2 title "monitor series: base vs patched\na line per run; counters as rates: the change over each interval / its length, at its middle"
set title "proc-vmstat.nr_free_pages"
set ylabel "no unit recorded"
set xlabel "seconds since the run's first sample"
set xrange [0:*]
set autoscale xfixmax
set xtics nomirror autofreq
set format y "%.0f"
set yrange [4630:6170]
unset label
plot $P1_L1 using 1:2 with linespoints lt 1 ps 0.9 pt 7 title "base run 31", \
     $P1_L2 using 1:2 with linespoints lt 2 ps 0.9 pt 7 title "patched run 33"
set title "proc-vmstat.pgfault, rate"
set ylabel "per second"
set xlabel "seconds since the run's first sample"
set xrange [0:*]
set autoscale xfixmax
set xtics nomirror autofreq
set format y "%.0f"
set yrange [90:310]
unset label
plot $P2_L1 using 1:2 with linespoints lt 1 ps 0.9 pt 7 title "base run 31", \
     $P2_L2 using 1:2 with linespoints lt 2 ps 0.9 pt 7 title "patched run 33"
unset multiplot
