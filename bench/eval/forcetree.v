(* ForceTree (as forcetree.thorin and bench/workloads.py): fold the complete
   Church-encoded binary tree of depth `depth` with Church boolean and, by
   vm_compute. Church booleans are instantiated at their own type (and on
   CBool), hence no universe checking, as Agda's --type-in-type. The depth is
   a Church numeral; bench/run rewrites its line for each depth. *)
Unset Universe Checking.

Definition CNat := forall N : Type, (N -> N) -> N -> N.
Definition czero : CNat := fun N s z => z.
Definition csuc (n : CNat) : CNat := fun N s z => s (n N s z).

Definition Tree := forall T : Type, T -> (T -> T -> T) -> T.
Definition leaf : Tree := fun T l n => l.
Definition node (t1 t2 : Tree) : Tree := fun T l n => n (t1 T l n) (t2 T l n).
Definition fullTree (n : CNat) : Tree := n Tree (fun t => node t t) leaf.

Definition CBool := forall B : Type, B -> B -> B.
Definition ctrue : CBool := fun B t f => t.
Definition cfalse : CBool := fun B t f => f.
Definition cand (a b : CBool) : CBool := a CBool b cfalse.
Definition forceTree (t : Tree) : CBool := t CBool ctrue cand.

Definition depth : CNat := csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc (csuc czero)))))))))))))).

Eval vm_compute in forceTree (fullTree depth) bool true false.
