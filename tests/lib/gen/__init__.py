"""Random thorin programs for the differential tests: one generator, with a
shared core and families of programs.

The core:
  ty.py         types and their text
  terms.py      terms (literal, variable, operator, if, let, application,
                lambda, …) and their text, with precedences
  entries.py    definitions, directives and lines of a file
  model.py      the strict evaluator: terms compiled to Python, run under a
                step budget
  semantics.py  what %core's operations do in the model (core_model.py's
                arithmetic), exactly or conservatively
  rng.py        random choices (weighted picks)

The families (each deterministic by seed):
  typed.py, typed_program.py, library.py, shadow.py
                well-typed programs over builtin data, Church encodings,
                pairs and arrays, with the output `thorin run` must print
                (test_differential.py, test_pe_differential.py,
                test_gen_programs.py); `python3 tests/lib/gen --help`
  first_order.py, loops.py, words.py, words_terms.py
                first-order functions for the baseline JIT tier: I64 loops
                (test_baseline_differential.py) and Nat/F64/I64/Idx/array
                ones (test_baseline_words_differential.py), with their values
                and run-time errors
  church.py     Church numerals, booleans and pairs for normal forms
                (test_nf_differential.py, test_convert_by_running.py)
  multifile.py  definitions over three files that import each other, for
                reloading (test_reload_differential.py)
  arrays.py     arrays shared and set (variables read again, lets, pairs,
                rows, closures, loops), with the output of the copying
                semantics (test_inplace_differential.py)
  data_programs.py
                `data` declarations, definitions by clauses, `case`, the
                generated eliminators and polymorphic functions over them,
                with a model of pattern matching for the output of `.eval`
                and `.nf` (test_data_differential.py)

__main__.py and samples.py print programs of each family:
`python3 tests/lib/gen --help`.
"""
