set terminal pngcairo size 1600,800 font ',9' noenhanced
set output 'reduce.png'
set datafile separator ','
ours = ' halving-doubling binary-tree binary-tree-pipeline linear-pipeline two-tree'
theirs = ''
set multiplot layout 1,2 title 'reduce, p = 28, platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B) - dashed: cost model'
set logscale xy
set grid
set xlabel 'message size (bytes)'
set key left top font ',8'
set ylabel 'time of the slowest rank (us)'
plot for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):6 with linespoints lw 2 pt 7 ps 0.6 lc i title word(ours,i), \
     for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):7 with lines lw 1 dt 2 lc i notitle
set key off
set ylabel 'bandwidth m / time (MB/s)'
plot for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):($4/$6) with linespoints lw 2 pt 7 ps 0.6 lc i title word(ours,i), \
     for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):($4/$7) with lines lw 1 dt 2 lc i notitle
unset multiplot
