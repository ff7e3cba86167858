(* The array loop of arrloop.thorin: 10⁷ updates of a 1,000-element array.
   Expected: 4995000000. *)
let rec loop k a = if k = 0 then a else begin
  let i = k mod 1000 in a.(i) <- a.(i) + 1; loop (k - 1) a end
let () =
  let a = loop 10000000 (Array.make 1000 0) in
  let s = ref 0 in
  Array.iteri (fun i x -> s := !s + x * i) a;
  Printf.printf "%d\n" !s
