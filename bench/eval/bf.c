/* A Brainfuck interpreter (as bf.thorin) running Daniel Cristofani's program
   that prints the squares 0, 1, 4, ..., 10000, ten times over. The output
   bytes are folded into a checksum, sum = (31 sum + byte) mod 1000000007,
   carried across the ten runs, and the checksum is printed.
   The same algorithm as bf.thorin: a jump table computed by scanning for the
   matching bracket, a `step` on the state (pc, ptr, tape, sum), and a driver
   that runs `fuel` steps as two halves, so that its recursion is only
   log2(fuel) deep. The one difference: thorin's `set` copies the tape (32
   cells), here it is updated in place. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char prog[] =
    "++++[>+++++<-]>[<+++++>-]+<+[>[>+>+<<-]++>>[<<+>>-]>>>[-]++>[-]+>>>+[[-]++++++>>>]<<<"
    "[[<++++++++<++>>-]+<.<[>----<-]<]<<[>>>>>[>>>[-]+++++++++<[>-<-]+++++++++>[-[<->-]+[<<<]]"
    "<[>+<-]>]<<-]<<-]";
#define LEN ((int64_t)sizeof prog - 1)
#define TAPE 32

static int64_t jumps[256];

static int64_t matchFwd(int64_t i, int64_t depth) {
  if (prog[i] == ']') return depth == 1 ? i : matchFwd(i + 1, depth - 1);
  if (prog[i] == '[') return matchFwd(i + 1, depth + 1);
  return matchFwd(i + 1, depth);
}

static int64_t matchBack(int64_t i, int64_t depth) {
  if (prog[i] == '[') return depth == 1 ? i : matchBack(i - 1, depth - 1);
  if (prog[i] == ']') return matchBack(i - 1, depth + 1);
  return matchBack(i - 1, depth);
}

typedef struct {
  int64_t pc, ptr, sum;
  int64_t tape[TAPE];
} State;

static void step(State *s) {
  int64_t c = prog[s->pc], here = s->tape[s->ptr];
  if (c == '+') s->tape[s->ptr] = (here + 1) % 256, s->pc++;
  else if (c == '-') s->tape[s->ptr] = (here + 255) % 256, s->pc++;
  else if (c == '>') s->ptr++, s->pc++;
  else if (c == '<') s->ptr--, s->pc++;
  else if (c == '.') s->sum = (s->sum * 31 + here) % 1000000007, s->pc++;
  else if (c == '[' && here == 0) s->pc = jumps[s->pc] + 1;
  else if (c == ']' && here != 0) s->pc = jumps[s->pc] + 1;
  else s->pc++;
}

static void run(uint64_t fuel, State *s) {
  if (s->pc == LEN) return;
  if (fuel == 1) {
    step(s);
    return;
  }
  run(fuel - fuel / 2, s);
  run(fuel / 2, s);
}

int main(void) {
  for (int64_t i = 0; i < LEN; i++)
    jumps[i] = prog[i] == '[' ? matchFwd(i, 0) : prog[i] == ']' ? matchBack(i, 0) : 0;
  int64_t sum = 0;
  for (int k = 0; k < 10; k++) {
    State s;
    memset(&s, 0, sizeof s);
    s.sum = sum;
    run((uint64_t)1 << 40, &s);
    sum = s.sum;
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
