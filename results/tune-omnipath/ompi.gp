set terminal pngcairo size 1400,800 font ',9' noenhanced
set xtics ('32B' 0, '1KiB' 1, '32KiB' 2, '1MiB' 3) rotate by 45 right
set ytics ('32' 0, '128' 1, '512' 2, '1152' 3)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set rmargin at screen 0.78
set colorbox user origin screen 0.80, screen 0.15 size screen 0.02, screen 0.7
set xrange [-0.5:3.500000]
set yrange [-0.5:3.500000]
set output 'ompi-bcast-any.png'
set title 'Chosen: bcast (any operators), omnipath36x32 (L = 1 us, o = 1.5 us, g = 1 us, G = 0.08 ns/B, gamma = 0.1 ns/B, 36 x 32); label: runner-up time / chosen time'
unset logscale cb
set palette maxcolors 6
set palette defined (0 '#e41a1c', 1 '#377eb8', 2 '#4daf4a', 3 '#984ea3', 4 '#ff7f00', 5 '#a65628')
set cbrange [-0.5:5.5]
set cbtics ('smpi:flattree' 0, 'smpi:ompi_pipeline' 1, 'smpi:ompi_split_bintree' 2, 'smpi:binomial_tree' 3, 'smpi:scatter_rdb_allgather' 4, 'smpi:scatter_LR_allgather' 5)
plot 'ompi-bcast-any.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', $4)) with labels font ',7' notitle
set terminal pngcairo size 1400,800 font ',9' noenhanced
set xtics ('32B' 0, '1KiB' 1, '32KiB' 2, '1MiB' 3) rotate by 45 right
set ytics ('32' 0, '128' 1, '512' 2, '1152' 3)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set rmargin at screen 0.78
set colorbox user origin screen 0.80, screen 0.15 size screen 0.02, screen 0.7
set xrange [-0.5:3.500000]
set yrange [-0.5:3.500000]
set output 'ompi-allreduce-non-commutative.png'
set title 'Chosen: allreduce (non-commutative operators), omnipath36x32 (L = 1 us, o = 1.5 us, g = 1 us, G = 0.08 ns/B, gamma = 0.1 ns/B, 36 x 32); label: runner-up time / chosen time'
unset logscale cb
set palette maxcolors 2
set palette defined (0 '#e41a1c', 1 '#377eb8')
set cbrange [-0.5:1.5]
set cbtics ('smpi:redbcast' 0, 'smpi:rdb' 1)
plot 'ompi-allreduce-non-commutative.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', $4)) with labels font ',7' notitle
