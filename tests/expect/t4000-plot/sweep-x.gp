# perfsift plot sweep: gnuplot script, data inline
set terminal pngcairo size 1200,800 font "sans,12" noenhanced
set output "wis.png"
set linetype 1 lc rgb "#0072b2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d55e00" lw 2 pt 7 ps 0.8
set linetype 3 lc rgb "#009e73" lw 2 pt 7 ps 0.8
set linetype 4 lc rgb "#cc79a7" lw 2 pt 7 ps 0.8
set linetype 5 lc rgb "#e69f00" lw 2 pt 7 ps 0.8
set linetype 6 lc rgb "#56b4e9" lw 2 pt 7 ps 0.8
set linetype 7 lc rgb "#404040" lw 2 pt 7 ps 0.8
set linetype 8 lc rgb "#f0e442" lw 2 pt 7 ps 0.8
$P1_L1 << EOD
1 1000 10
4 905 5
16 710 10
EOD
$P1_L2 << EOD
1 1000 5
4 855 5
16 500 0
EOD
set grid ytics
set style fill solid 0.45 border -1
set border 3
set ytics nomirror
set boxwidth 0.6
set key outside top center horizontal noautotitle
set multiplot layout 1,1 title "will-it-scale.per_thread_ops: base vs patched, will-it-scale on m1 (mode=thread)\nmean ± sample standard deviation (n-1) over the runs at each point; a point of one run has no bar"
set title ""
set ylabel "ops"
set xlabel "nr_threads"
set logscale x 2
set xrange [0.8:20]
set xtics nomirror ("1" 1, "4" 4, "16" 16)
set format y "%.0f"
set yrange [474.5:1035.5]
unset label
plot $P1_L1 using 1:2:3 with yerrorlines lt 1 title "base", \
     $P1_L2 using 1:2:3 with yerrorlines lt 2 title "patched"
unset multiplot
