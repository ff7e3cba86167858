(* The F64 loop of f64loop.thorin: 3·10⁷ steps. Expected: 15000000. *)
let rec loop k acc = if k = 0 then acc else loop (k - 1) (acc +. 0.5)
let () = Printf.printf "%.1f\n" (loop 30000000 0.0)
