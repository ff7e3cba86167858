(* Binary-trees (the Benchmarks Game), one thread, as bintrees.thorin, with
   the default settings of the collector: a tree of depth d has 2^d - 1
   nodes and 2^d leaves (checksum 2^(d+1) - 1; the Benchmarks Game's
   program allocates as many, its `Node (Empty, Empty)` being a constant).
   Depth from the command line (default 21); prints the sum of the
   checksums (the stretch tree's, each depth's over its iterations, the
   long-lived tree's). *)
type tree = Leaf | Node of tree * tree

let rec make d = if d = 0 then Leaf else Node (make (d - 1), make (d - 1))

let rec check = function Leaf -> 1 | Node (l, r) -> 1 + check l + check r

let () =
  let min_d = 4 in
  let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 21 in
  let max_d = max (min_d + 2) n in
  let total = ref (check (make (max_d + 1))) in
  let long_lived = make max_d in
  let d = ref min_d in
  while !d <= max_d do
    let iterations = 1 lsl (max_d - !d + min_d) in
    for _ = 1 to iterations do total := !total + check (make !d) done;
    d := !d + 2
  done;
  total := !total + check long_lived;
  Printf.printf "%d\n" !total
