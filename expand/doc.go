// Package expand turns scalar temporaries into arrays (scalar expansion),
// so that the loop around a temporary's uses can run its iterations in any
// order: in parallel, or interchanged with the loops inside it.
//
// The statements that mention a scalar t split into live ranges, each
// opened by a kill: a statement that assigns t without reading it (t = e),
// outside the loops of the range before it. A live range whose kill W
// sits in the body of loop L (at depth d) is expanded along L when
//
//   - no code outside the region uses t (ir.Array.RegionOnly): its value
//     before the region is never read and its value after it is dead, so
//     no copy-in or copy-out is needed;
//   - every statement of every range of t lies inside the loops of its
//     range's kill, after it, and runs only in iterations of those loops
//     where the kill runs (each of its domains implies the kill's
//     constraints, decided exactly by integer emptiness); W's domain has
//     no floor-division locals;
//   - L's counter has bounds affine in the parameters over W's domain (the
//     rational projection onto the counter), which size the array;
//   - L carries no dependence between the statements inside it other than
//     those through the temporaries expanded along L, which expansion
//     removes: expanding gains a parallel loop, or expansion is not done.
//     The ranges killed in L's body are decided together: deriche's row
//     sweep keeps three temporaries from one iteration of its inner loop
//     to the next, and its outer loop runs in parallel only when all
//     three are expanded.
//
// ludcmp's w has four ranges (one per loop nest that computes it); only
// the one whose loop then runs in parallel is expanded.
//
// With Options.Product, a range is instead expanded along every loop of
// its kill, each counter's bounds sizing one dimension, when one of its
// statements then becomes a matrix product the code generator packs:
// symm's temp2 (a dot product per (i, j)) becomes T[i][j], M×N elements
// where the rule above gives N, and runs as packed blocks.
//
// Then every read of t reads a value of its own range, written in the
// same iteration of L and the loops around it, so giving the range its
// own storage, and each iteration of L its own element t_x[i − lo],
// changes no value any statement reads: the dependences through t that L
// carried (output and anti dependences between iterations) disappear, and
// those inside an iteration stay. Ranges not expanded keep t. The new array
// has ir.ScopLocal storage and Heap set: the generated code allocates it
// for the region. The scalar itself stays in Program.Arrays, unused.
package expand
