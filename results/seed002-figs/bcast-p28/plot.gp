set terminal pngcairo size 1770,900 font ',11' noenhanced
set output 'bcast.png'
set datafile separator ','
array names[7] = ['binomial', 'linear-pipeline', 'binary-tree-pipeline', 'scatter-allgather', 'circulant', 'two-tree', 'two-tree-overlap']
set multiplot title 'bcast, p = 28: time and bandwidth against message size' . "\012" . 'platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B)' . "\012" . 'thick solid: ours; thin dotted: cost model of ours' font ',12'
set logscale xy
set grid xtics ytics
set autoscale yfix
set offsets 0, 0, graph 0.04, graph 0.04
set xrange [1023.999998976:16777216.016777217]
unset mxtics
set xtics ('1KiB' 1024, '' 2048, '4KiB' 4096, '' 8192, '16KiB' 16384, '' 32768, '64KiB' 65536, '' 131072, '256KiB' 262144, '' 524288, '1MiB' 1048576, '' 2097152, '4MiB' 4194304, '' 8388608, '16MiB' 16777216) rotate by 45 right
set xlabel 'message size m'
set lmargin at screen 0.0508
set rmargin at screen 0.4124
set tmargin at screen 0.8911
set bmargin at screen 0.1222
set key off
set ylabel 'time of the slowest rank (us)'
set ytics ('20' 20, '50' 50, '100' 100, '200' 200, '500' 500, '1000' 1000, '2000' 2000, '5000' 5000, '10000' 10000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#3cb44b' pt 5 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#3cb44b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#4363d8' pt 9 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#4363d8' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f58231' pt 11 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#f58231' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#911eb4' pt 13 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#911eb4' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#42d4f4' pt 15 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#42d4f4' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f032e6' pt 6 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#f032e6' lw 1 dt 3 notitle
set lmargin at screen 0.4746
set rmargin at screen 0.8362
set tmargin at screen 0.8911
set bmargin at screen 0.1222
set key at screen 0.8531, screen 0.8911 left top Left reverse samplen 3 spacing 1.1 maxrows 7 font ',11'
set ylabel 'bandwidth m / time (MB/s)'
set ytics ('10' 10, '30' 30, '100' 100, '300' 300, '1000' 1000, '3000' 3000, '10000' 10000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 title names[1], \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#3cb44b' pt 5 ps 1.1 lw 2.5 dt 1 title names[2], \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#3cb44b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#4363d8' pt 9 ps 1.1 lw 2.5 dt 1 title names[3], \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#4363d8' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f58231' pt 11 ps 1.1 lw 2.5 dt 1 title names[4], \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#f58231' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#911eb4' pt 13 ps 1.1 lw 2.5 dt 1 title names[5], \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#911eb4' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#42d4f4' pt 15 ps 1.1 lw 2.5 dt 1 title names[6], \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#42d4f4' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f032e6' pt 6 ps 1.1 lw 2.5 dt 1 title names[7], \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#f032e6' lw 1 dt 3 notitle
unset multiplot
