set terminal pngcairo size 1687,900 font ',11' noenhanced
set output 'reduce.png'
set datafile separator ','
array names[2] = ['circulant', 'smpi:ompi']
set multiplot title 'reduce, p = 200: time and bandwidth against message size' . "\012" . 'platform rome200x128 (alpha = 1.5 us, beta = 0.08 ns/B, gamma = 0.1 ns/B, full duplex)' . "\012" . 'changed: 1 cores per node' . "\012" . 'thick solid: ours; dashed: SimGrid' . "\047" . 's built-ins; thin dotted: cost model of ours' font ',12'
set logscale xy
set grid xtics ytics
set autoscale yfix
set offsets 0, 0, graph 0.04, graph 0.04
set xrange [4095.9999959040001:16777216.016777217]
unset mxtics
set xtics ('4KiB' 4096, '64KiB' 65536, '1MiB' 1048576, '16MiB' 16777216)
set xlabel 'message size m'
set lmargin at screen 0.0533
set rmargin at screen 0.4327
set tmargin at screen 0.8678
set bmargin at screen 0.1222
set key off
set ylabel 'time of the slowest rank (us)'
set ytics ('30' 30, '100' 100, '300' 300, '1000' 1000, '3000' 3000, '10000' 10000, '30000' 30000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#3cb44b' pt 5 ps 0.9 lw 1.5 dt 2 notitle
set lmargin at screen 0.4979
set rmargin at screen 0.8773
set tmargin at screen 0.8678
set bmargin at screen 0.1222
set key at screen 0.8951, screen 0.8678 left top Left reverse samplen 3 spacing 1.1 maxrows 2 font ',11'
set ylabel 'bandwidth m / time (MB/s)'
set ytics ('100' 100, '200' 200, '500' 500, '1000' 1000, '2000' 2000, '5000' 5000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 title names[1], \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#3cb44b' pt 5 ps 0.9 lw 1.5 dt 2 title names[2]
unset multiplot
