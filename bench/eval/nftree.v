(* NfTree (as nftree.thorin): the normal form of the complete Church-encoded
   binary tree of depth `depth`, by `compute` (Coq's strong call-by-value
   normalizer). The normal form (2^depth leaves) is bound in Ltac and
   dropped instead of printed; "normalized" is printed once it is computed.
   bench/run rewrites the `depth` line for each depth. *)
Unset Universe Checking.

Definition CNat := forall N : Type, (N -> N) -> N -> N.
Definition czero : CNat := fun N s z => z.
Definition csuc (n : CNat) : CNat := fun N s z => s (n N s z).

Definition Tree := forall T : Type, T -> (T -> T -> T) -> T.
Definition leaf : Tree := fun T l n => l.
Definition node (t1 t2 : Tree) : Tree := fun T l n => n (t1 T l n) (t2 T l n).
Definition fullTree (n : CNat) : Tree := n Tree (fun t => node t t) leaf.

Definition depth : CNat := csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc czero)))))))))))))).

Goal True.
  let t := eval compute in (fullTree depth) in idtac "normalized".
Abort.
