set terminal pngcairo size 1860,900 font ',11' noenhanced
set output 'bcast.png'
set datafile separator ','
array names[33] = ['circulant', 'binomial', 'logp-tree', 'logp-tree-pipeline', 'linear-pipeline', 'binary-tree-pipeline', 'two-tree', 'two-tree-overlap', 'scatter-allgather', 'node-aware', 'smpi:default', 'smpi:arrival_pattern_aware', 'smpi:arrival_pattern_aware_wait', 'smpi:arrival_scatter', 'smpi:binomial_tree', 'smpi:flattree', 'smpi:flattree_pipeline', 'smpi:NTSB', 'smpi:NTSL', 'smpi:NTSL_Isend', 'smpi:scatter_LR_allgather', 'smpi:scatter_rdb_allgather', 'smpi:SMP_binary', 'smpi:SMP_binomial', 'smpi:SMP_linear', 'smpi:ompi', 'smpi:ompi_pipeline', 'smpi:mpich', 'smpi:mvapich2', 'smpi:mvapich2_inter_node', 'smpi:mvapich2_intra_node', 'smpi:mvapich2_knomial_intra_node', 'smpi:impi']
set multiplot title 'bcast, p = 64: time and bandwidth against message size' . "\012" . 'platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B)' . "\012" . 'thick solid: ours; dashed: SimGrid' . "\047" . 's built-ins; thin dotted: cost model of ours; grey: wrong result (left out of the table)' font ',12'
set logscale xy
set grid xtics ytics
set autoscale yfix
set offsets 0, 0, graph 0.04, graph 0.04
set xrange [1023.999998976:2097152.0020971522]
unset mxtics
set xtics ('1KiB' 1024, '2KiB' 2048, '4KiB' 4096, '8KiB' 8192, '16KiB' 16384, '32KiB' 32768, '64KiB' 65536, '128KiB' 131072, '256KiB' 262144, '512KiB' 524288, '1MiB' 1048576, '2MiB' 2097152) rotate by 45 right
set xlabel 'message size m'
set lmargin at screen 0.0484
set rmargin at screen 0.3925
set tmargin at screen 0.8911
set bmargin at screen 0.1222
set key off
set ylabel 'time of the slowest rank (us)'
set ytics ('3' 3, '10' 10, '30' 30, '100' 100, '300' 300, '1000' 1000, '3000' 3000, '10000' 10000, '30000' 30000)
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
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#f032e6' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#9a6324' pt 4 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#9a6324' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#469990' pt 8 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#469990' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#800000' pt 10 ps 1.1 lw 2.5 dt 1 notitle, \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):($7) with lines lc rgb '#800000' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[11] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#808000' pt 12 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[12] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#000075' pt 14 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[13] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#000000' pt 2 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[14] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#e6b400' pt 7 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[15] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#ff8fb1' pt 5 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[16] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#a98bde' pt 9 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[17] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#5fd38d' pt 11 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[18] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#d9a066' pt 13 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[19] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#8fbc1a' pt 15 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[20] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#e6194b' pt 15 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[21] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#3cb44b' pt 6 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[22] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#4363d8' pt 4 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[23] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f58231' pt 8 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[24] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#911eb4' pt 10 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[26] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#42d4f4' pt 12 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[27] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#f032e6' pt 14 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[28] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#9a6324' pt 2 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[29] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#469990' pt 7 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[30] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#800000' pt 5 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[31] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#808000' pt 9 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[32] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#000075' pt 11 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[33] && $12 == 1) ? $4 : 1/0):($6) with linespoints lc rgb '#000000' pt 13 ps 0.9 lw 1.5 dt 2 notitle, \
     'results.csv' using ((strcol(2) eq names[25] && $12 == 0) ? $4 : 1/0):($6) with points lc rgb '#8c8c8c' pt 12 ps 1.5 notitle
set lmargin at screen 0.4516
set rmargin at screen 0.7957
set tmargin at screen 0.8911
set bmargin at screen 0.1222
set key at screen 0.8118, screen 0.8911 left top Left reverse samplen 3 spacing 1.1 maxrows 33 font ',11'
set ylabel 'bandwidth m / time (MB/s)'
set ytics ('0.1' 0.10000000000000001, '0.3' 0.30000000000000004, '1' 1, '3' 3, '10' 10, '30' 30, '100' 100, '300' 300, '1000' 1000, '3000' 3000)
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
     'results.csv' using ((strcol(2) eq names[7] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#f032e6' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#9a6324' pt 4 ps 1.1 lw 2.5 dt 1 title names[8], \
     'results.csv' using ((strcol(2) eq names[8] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#9a6324' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#469990' pt 8 ps 1.1 lw 2.5 dt 1 title names[9], \
     'results.csv' using ((strcol(2) eq names[9] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#469990' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#800000' pt 10 ps 1.1 lw 2.5 dt 1 title names[10], \
     'results.csv' using ((strcol(2) eq names[10] && $12 == 1) ? $4 : 1/0):(($4/$7)) with lines lc rgb '#800000' lw 1 dt 3 notitle, \
     'results.csv' using ((strcol(2) eq names[11] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#808000' pt 12 ps 0.9 lw 1.5 dt 2 title names[11], \
     'results.csv' using ((strcol(2) eq names[12] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#000075' pt 14 ps 0.9 lw 1.5 dt 2 title names[12], \
     'results.csv' using ((strcol(2) eq names[13] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#000000' pt 2 ps 0.9 lw 1.5 dt 2 title names[13], \
     'results.csv' using ((strcol(2) eq names[14] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#e6b400' pt 7 ps 0.9 lw 1.5 dt 2 title names[14], \
     'results.csv' using ((strcol(2) eq names[15] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#ff8fb1' pt 5 ps 0.9 lw 1.5 dt 2 title names[15], \
     'results.csv' using ((strcol(2) eq names[16] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#a98bde' pt 9 ps 0.9 lw 1.5 dt 2 title names[16], \
     'results.csv' using ((strcol(2) eq names[17] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#5fd38d' pt 11 ps 0.9 lw 1.5 dt 2 title names[17], \
     'results.csv' using ((strcol(2) eq names[18] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#d9a066' pt 13 ps 0.9 lw 1.5 dt 2 title names[18], \
     'results.csv' using ((strcol(2) eq names[19] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#8fbc1a' pt 15 ps 0.9 lw 1.5 dt 2 title names[19], \
     'results.csv' using ((strcol(2) eq names[20] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#e6194b' pt 15 ps 0.9 lw 1.5 dt 2 title names[20], \
     'results.csv' using ((strcol(2) eq names[21] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#3cb44b' pt 6 ps 0.9 lw 1.5 dt 2 title names[21], \
     'results.csv' using ((strcol(2) eq names[22] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#4363d8' pt 4 ps 0.9 lw 1.5 dt 2 title names[22], \
     'results.csv' using ((strcol(2) eq names[23] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f58231' pt 8 ps 0.9 lw 1.5 dt 2 title names[23], \
     'results.csv' using ((strcol(2) eq names[24] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#911eb4' pt 10 ps 0.9 lw 1.5 dt 2 title names[24], \
     'results.csv' using ((strcol(2) eq names[26] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#42d4f4' pt 12 ps 0.9 lw 1.5 dt 2 title names[26], \
     'results.csv' using ((strcol(2) eq names[27] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#f032e6' pt 14 ps 0.9 lw 1.5 dt 2 title names[27], \
     'results.csv' using ((strcol(2) eq names[28] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#9a6324' pt 2 ps 0.9 lw 1.5 dt 2 title names[28], \
     'results.csv' using ((strcol(2) eq names[29] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#469990' pt 7 ps 0.9 lw 1.5 dt 2 title names[29], \
     'results.csv' using ((strcol(2) eq names[30] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#800000' pt 5 ps 0.9 lw 1.5 dt 2 title names[30], \
     'results.csv' using ((strcol(2) eq names[31] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#808000' pt 9 ps 0.9 lw 1.5 dt 2 title names[31], \
     'results.csv' using ((strcol(2) eq names[32] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#000075' pt 11 ps 0.9 lw 1.5 dt 2 title names[32], \
     'results.csv' using ((strcol(2) eq names[33] && $12 == 1) ? $4 : 1/0):(($4/$6)) with linespoints lc rgb '#000000' pt 13 ps 0.9 lw 1.5 dt 2 title names[33], \
     'results.csv' using ((strcol(2) eq names[25] && $12 == 0) ? $4 : 1/0):(($4/$6)) with points lc rgb '#8c8c8c' pt 12 ps 1.5 title names[25] . ' (wrong result)'
unset multiplot
