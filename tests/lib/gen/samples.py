"""Programs of each family as text, as its test makes them (the CLI's
--family): a look at what a family generates."""
from . import arrays, church, data_programs, first_order, loops, multifile, words
from .entries import file_text
from .rng import Rng


def first_order_text(variant, count, seed):
    rng = Rng(seed)
    progs = first_order.deep(lambda: [first_order.gen_program(rng, pid, variant) for pid in range(count)])
    return "\n".join("".join(t + (f"--   {e}" if e else "") for t, e in p.entries()) for p in progs)


def church_text(count, seed):
    rng = Rng(seed)
    out = [church.prelude_text()]
    for n in range(count):
        g = church.ChurchGen(rng)
        out.append(f"-- program {n}\n" + file_text([e for i in range(12) for e in g.directive(i)]))
    return "\n".join(out)


def multifile_text(count, seed):
    rng = Rng(seed)
    out = []
    for n in range(count):
        state = multifile.MultiFileGen(rng).program(big=False)
        out += [f"-- program {n}: {f}.thorin\n" + file_text(state[f]) for f in multifile.FILES]
    return "\n".join(out)


def data_text(count, seed):
    out = []
    for p in data_programs.generate(count, seed):
        out.append(p.text() + "".join(f"--   {line}\n" for line in p.expected().splitlines()))
    return "\n".join(out)


FAMILIES = {
    "loops": lambda count, seed: first_order_text(loops, count, seed),
    "words": lambda count, seed: first_order_text(words, count, seed),
    "church": church_text,
    "data": data_text,
    "multifile": multifile_text,
    "arrays": lambda count, seed: "\n".join(
        "{}-- expected:\n{}".format(*arrays.generate_file(int(seed) + k)) for k in range(count)),
}
