set terminal pngcairo size 1400,800 font ',9' noenhanced
set rmargin at screen 0.78
set colorbox user origin screen 0.80, screen 0.15 size screen 0.02, screen 0.7
set xtics ('8B' 0, '64B' 1, '512B' 2, '4KiB' 3, '32KiB' 4, '64KiB' 5, '256KiB' 6, '1MiB' 7, '8MiB' 8) rotate by 45 right
set ytics ('2' 0, '3' 1, '4' 2, '5' 3, '8' 4, '13' 5, '16' 6, '24' 7, '32' 8, '33' 9, '64' 10, '128' 11)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set xrange [-0.5:8.500000]
set yrange [-0.5:11.500000]
set output 'results/allreduce-map/map.png'
set title 'Fastest protocol: allreduce, alphabeta (alpha = 5 us, beta = 1 ns/B, gamma = 1 ns/B, full duplex)'
set palette maxcolors 5
set palette defined (0 '#e41a1c', 1 '#377eb8', 2 '#4daf4a', 3 '#984ea3', 4 '#ff7f00')
set cbrange [-0.5:4.5]
set cbtics ('binary-tree' 0, 'recursive-doubling' 1, 'halving-doubling' 2, 'binary-blocks' 3, 'ring' 4)
plot 'results/allreduce-map/grid.dat' using 1:2:3 with image notitle
set output 'results/allreduce-map/ratio.png'
set title 'SimGrid best time / our best time: allreduce, alphabeta (alpha = 5 us, beta = 1 ns/B, gamma = 1 ns/B, full duplex)'
set palette defined (0 '#d73027', 1 '#ffffbf', 2 '#1a9850')
set logscale cb
set cbrange [0.25:16]
set cbtics auto
plot 'results/allreduce-map/grid.dat' using 1:2:4 with image notitle, '' using 1:2:(sprintf('%.1f', $4)) with labels font ',6' notitle
