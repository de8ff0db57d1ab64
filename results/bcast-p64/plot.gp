set terminal pngcairo size 1600,800 font ',9' noenhanced
set output 'bcast.png'
set datafile separator ','
ours = ' circulant binomial linear-pipeline binary-tree-pipeline two-tree scatter-allgather'
theirs = ' smpi:default smpi:arrival_pattern_aware smpi:arrival_pattern_aware_wait smpi:arrival_scatter smpi:binomial_tree smpi:flattree smpi:flattree_pipeline smpi:NTSB smpi:NTSL smpi:NTSL_Isend smpi:scatter_LR_allgather smpi:scatter_rdb_allgather smpi:SMP_binary smpi:SMP_binomial smpi:SMP_linear smpi:ompi smpi:ompi_split_bintree smpi:ompi_pipeline smpi:mpich smpi:mvapich2 smpi:mvapich2_inter_node smpi:mvapich2_intra_node smpi:mvapich2_knomial_intra_node smpi:impi'
set multiplot layout 1,2 title 'bcast, p = 64, platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B) - dashed: cost model'
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
