(* Merge sort of 10^6 pseudo-random numbers on lists, as msort.thorin (the
   structure of the standard library's List.sort: merges onto an
   accumulator, so no recursion deeper than log n). Size from the command
   line (default 1000000); prints the checksum of the sorted list. *)
let rec gen n s acc =
  if n = 0 then acc else gen (n - 1) ((s * 1103515245 + 12345) mod 2147483648) (s :: acc)

(* two ascending lists merged onto acc: descending *)
let rec merge_dn (xs : int list) (ys : int list) acc =
  match xs, ys with
  | [], _ -> List.rev_append ys acc
  | _, [] -> List.rev_append xs acc
  | x :: xt, y :: yt -> if x <= y then merge_dn xt ys (x :: acc) else merge_dn xs yt (y :: acc)

(* two descending lists merged onto acc: ascending *)
let rec merge_up (xs : int list) (ys : int list) acc =
  match xs, ys with
  | [], _ -> List.rev_append ys acc
  | _, [] -> List.rev_append xs acc
  | x :: xt, y :: yt -> if y <= x then merge_up xt ys (x :: acc) else merge_up xs yt (y :: acc)

(* the first n (>= 1) elements of xs sorted ascending (asc) or descending,
   and the rest of xs; the halves are sorted the other way round *)
let rec srt asc n xs =
  if n = 1 then (match xs with x :: t -> ([x], t) | [] -> ([], []))
  else
    let a, rest = srt (not asc) (n / 2) xs in
    let b, rest2 = srt (not asc) (n - n / 2) rest in
    ((if asc then merge_up a b [] else merge_dn a b []), rest2)

let rec checksum xs i acc =
  match xs with [] -> acc | x :: t -> checksum t (i + 1) ((acc + i * x) mod 1000000007)

let () =
  let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 1000000 in
  Printf.printf "%d\n" (checksum (fst (srt true n (gen n 42 []))) 1 0)
