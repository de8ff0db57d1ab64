set terminal pngcairo size 1361,789 font ',12' noenhanced
set xtics ('32B' 0, '1KiB' 1, '32KiB' 2, '1MiB' 3) rotate by 45 right
set ytics ('32' 0, '128' 1, '512' 2, '1152' 3)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set lmargin at screen 0.0955
set rmargin at screen 0.7568
set bmargin at screen 0.1521
set tmargin at screen 0.8619
set colorbox user origin screen 0.7752, screen 0.1521 size screen 0.0162, screen 0.7098
set xrange [-0.5:3.500000]
set yrange [-0.5:3.500000]
set output 'ompi-bcast-any.png'
set title 'Chosen: bcast (any operators); label: runner-up time / chosen time' . "\012" . 'platform omnipath36x32 (L = 1 us, o = 1.5 us, g = 1 us, G = 0.08 ns/B, gamma = 0.1 ns/B, 36 x 32)' . "\012" . 'changed: o = 1.5 us, g = 1 us' font ',13'
unset logscale cb
set palette maxcolors 3
set palette defined (0 '#e6194b', 1 '#3cb44b', 2 '#4363d8')
set cbrange [-0.5:2.5]
set cbtics ('smpi:ompi_split_bintree' 0, 'smpi:binomial_tree' 1, 'smpi:scatter_rdb_allgather' 2) font ',12'
plot 'ompi-bcast-any.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', $4)):5 with labels tc rgb variable font ',11' notitle
set terminal pngcairo size 1208,789 font ',12' noenhanced
set xtics ('32B' 0, '1KiB' 1, '32KiB' 2, '1MiB' 3) rotate by 45 right
set ytics ('32' 0, '128' 1, '512' 2, '1152' 3)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set lmargin at screen 0.1076
set rmargin at screen 0.8526
set bmargin at screen 0.1521
set tmargin at screen 0.8619
set colorbox user origin screen 0.8733, screen 0.1521 size screen 0.0182, screen 0.7098
set xrange [-0.5:3.500000]
set yrange [-0.5:3.500000]
set output 'ompi-allreduce-non-commutative.png'
set title 'Chosen: allreduce (non-commutative operators); label: runner-up time / chosen time' . "\012" . 'platform omnipath36x32 (L = 1 us, o = 1.5 us, g = 1 us, G = 0.08 ns/B, gamma = 0.1 ns/B, 36 x 32)' . "\012" . 'changed: o = 1.5 us, g = 1 us' font ',13'
unset logscale cb
set palette maxcolors 2
set palette defined (0 '#e6194b', 1 '#e6194b')
set cbrange [-0.5:0.5]
set cbtics ('smpi:rdb' 0) font ',12'
plot 'ompi-allreduce-non-commutative.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', $4)):5 with labels tc rgb variable font ',11' notitle
