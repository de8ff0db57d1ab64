set terminal pngcairo size 1600,800 font ',9' noenhanced
set output 'allgatherv.png'
set datafile separator ','
ours = ' multi-lane circulant'
theirs = ' smpi:mvapich2 smpi:ompi smpi:ompi_neighborexchange'
set multiplot layout 1,2 title 'allgatherv, p = 1024, platform rome200x128 (alpha = 1.5 us, beta = 0.08 ns/B, gamma = 0.1 ns/B, full duplex, 8 x 128) - dashed: cost model'
set logscale xy
set grid
set xlabel 'message size (bytes)'
set key left top font ',8'
set ylabel 'time of the slowest rank (us)'
plot for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):6 with linespoints lw 2 pt 7 ps 0.6 lc i title word(ours,i), \
     for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):7 with lines lw 1 dt 2 lc i notitle, \
     for [i=1:words(theirs)] 'results.csv' using ((strcol(2) eq word(theirs,i)) ? $4 : 1/0):6 with linespoints lw 1 dt 3 pt (i % 12 + 1) ps 0.6 lc (i + 5) title word(theirs,i)
set key off
set ylabel 'bandwidth m / time (MB/s)'
plot for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):($4/$6) with linespoints lw 2 pt 7 ps 0.6 lc i title word(ours,i), \
     for [i=1:words(ours)] 'results.csv' using ((strcol(2) eq word(ours,i)) ? $4 : 1/0):($4/$7) with lines lw 1 dt 2 lc i notitle, \
     for [i=1:words(theirs)] 'results.csv' using ((strcol(2) eq word(theirs,i)) ? $4 : 1/0):($4/$6) with linespoints lw 1 dt 3 pt (i % 12 + 1) ps 0.6 lc (i + 5) title word(theirs,i)
unset multiplot
