"""Random choices of the generators: a random.Random (seeded as such, so the
same seed gives the same programs) with weighted picks."""
import random


class Rng(random.Random):
    def chance(self, p):
        return self.random() < p

    def pick(self, weighted):
        """One v of [(weight, v)], by weight (a weight of 0: never)."""
        total = sum(w for w, _ in weighted)
        x = self.random() * total
        for w, v in weighted:
            x -= w
            if x < 0:
                return v
        return [v for w, v in weighted if w > 0][-1]        # (rounding)

    def run(self, weighted):
        """Calls one f of [(weight, f)], picked by weight."""
        return self.pick(weighted)()
