set terminal pngcairo size 1569,766 font ',12' noenhanced
set xtics ('8B' 0, '16B' 1, '32B' 2, '64B' 3, '128B' 4, '256B' 5, '512B' 6, '1KiB' 7, '2KiB' 8, '4KiB' 9, '8KiB' 10, '16KiB' 11, '32KiB' 12, '64KiB' 13, '128KiB' 14, '256KiB' 15, '512KiB' 16, '1MiB' 17, '2MiB' 18, '4MiB' 19, '8MiB' 20) rotate by 45 right
set ytics ('2' 0, '3' 1, '4' 2, '5' 3, '6' 4, '8' 5, '9' 6, '12' 7, '16' 8, '17' 9, '24' 10, '32' 11, '33' 12, '48' 13, '64' 14, '65' 15, '96' 16, '128' 17)
set xlabel 'input vector size'
set ylabel 'number of MPI processes p'
set lmargin at screen 0.0829
set rmargin at screen 0.8324
set bmargin at screen 0.1567
set tmargin at screen 0.8877
set colorbox user origin screen 0.8483, screen 0.1567 size screen 0.0140, screen 0.7311
set xrange [-0.5:20.500000]
set yrange [-0.5:17.500000]
set output 'map.png'
set title 'Fastest of ours: allreduce; label: runner-up of ours / fastest' . "\012" . 'platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B)' font ',13'
unset logscale cb
set palette maxcolors 7
set palette defined (0 '#e6194b', 1 '#3cb44b', 2 '#4363d8', 3 '#f58231', 4 '#911eb4', 5 '#42d4f4', 6 '#f032e6')
set cbrange [-0.5:6.5]
set cbtics ('binary-tree' 0, 'recursive-doubling' 1, 'halving-doubling' 2, 'binary-blocks' 3, 'ring' 4, 'circulant' 5, 'multi-lane' 6) font ',12'
plot 'grid.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', $4)):5 with labels tc rgb variable font ',11' notitle
set output 'ratio.png'
set title 'SimGrid' . "\047" . 's best time / our best time: allreduce' . "\012" . 'platform loggp (L = 2.5 us, o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B)' font ',13'
set palette maxcolors 0
set palette defined (-2 '#d73027', 0 '#ffffbf', 4 '#1a9850')
set logscale cb
set cbrange [0.25:16]
set cbtics auto
plot 'ratio.dat' using 1:2:4 with image notitle, '' using 1:2:(sprintf('%.2f', $4)) with labels font ',11' notitle
