set terminal pngcairo size 1815,900 font ',11' noenhanced
set output 'allreduce.png'
set datafile separator ','
array names[11] = ['multi-lane', 'node-aware', 'binary-blocks', 'circulant', 'smpi:smp_rsag_lr', 'smpi:smp_rdb', 'smpi:smp_binomial', 'smpi:smp_binomial_pipeline', 'smpi:mvapich2_two_level', 'smpi:mvapich2', 'smpi:ompi']
set multiplot title 'allreduce, p = 1024: time and bandwidth against message size' . "\012" . 'platform rome200x128 (alpha = 1.5 us, beta = 0.08 ns/B, gamma = 0.1 ns/B, full duplex, 8 x 128)' . "\012" . 'changed: 8 nodes' . "\012" . 'thick solid: ours; dashed: SimGrid' . "\047" . 's built-ins; thin dotted: cost model of ours' font ',12'
set logscale xy
set grid xtics ytics
set autoscale yfix
set offsets 0, 0, graph 0.04, graph 0.04
set xrange [524287.99947571201:2097152.0020971522]
unset mxtics
set xtics ('1MiB' 1048576)
set xlabel 'message size m'
set lmargin at screen 0.0496
set rmargin at screen 0.4022
set tmargin at screen 0.8678
set bmargin at screen 0.1222
set key off
set ylabel 'time of the slowest rank (us)'
set ytics ('500' 500, '1000' 1000, '2000' 2000, '5000' 5000, '10000' 10000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#3cb44b' pt 5 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#3cb44b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#4363d8' pt 9 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#4363d8' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f58231' pt 11 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#f58231' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#911eb4' pt 13 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#42d4f4' pt 15 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f032e6' pt 6 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#9a6324' pt 4 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#469990' pt 8 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#800000' pt 10 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[11] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#808000' pt 12 ps 0.9 lw 1.5 dt 2 notitle
set lmargin at screen 0.4628
set rmargin at screen 0.8154
set tmargin at screen 0.8678
set bmargin at screen 0.1222
set key at screen 0.8320, screen 0.8678 left top Left reverse samplen 3 spacing 1.1 maxrows 11 font ',11'
set ylabel 'bandwidth m / time (MB/s)'
set ytics ('100' 100, '200' 200, '500' 500, '1000' 1000, '2000' 2000, '5000' 5000)
set mytics default
plot 'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#e6194b' pt 7 ps 1.1 lw 2.5 dt 1 title names[1], \
     'results.csv' using ((strcol(2) eq names[1] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#e6194b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#3cb44b' pt 5 ps 1.1 lw 2.5 dt 1 title names[2], \
     'results.csv' using ((strcol(2) eq names[2] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#3cb44b' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#4363d8' pt 9 ps 1.1 lw 2.5 dt 1 title names[3], \
     'results.csv' using ((strcol(2) eq names[3] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#4363d8' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f58231' pt 11 ps 1.1 lw 2.5 dt 1 title names[4], \
     'results.csv' using ((strcol(2) eq names[4] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#f58231' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[5] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#911eb4' pt 13 ps 0.9 lw 1.5 dt 2 title names[5], \
     'results.csv' using ((strcol(2) eq names[6] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#42d4f4' pt 15 ps 0.9 lw 1.5 dt 2 title names[6], \
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f032e6' pt 6 ps 0.9 lw 1.5 dt 2 title names[7], \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#9a6324' pt 4 ps 0.9 lw 1.5 dt 2 title names[8], \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#469990' pt 8 ps 0.9 lw 1.5 dt 2 title names[9], \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#800000' pt 10 ps 0.9 lw 1.5 dt 2 title names[10], \
     'results.csv' using ((strcol(2) eq names[11] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#808000' pt 12 ps 0.9 lw 1.5 dt 2 title names[11]
unset multiplot
