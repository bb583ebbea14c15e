/* Ada, a Kalah bot in C: it plays the rightmost pit that holds seeds, the one closest to its store.
   Self-contained on purpose: a contest submission sees nothing but its own folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pits = 6, seeds = 4, pie = 0, board[34], side;

/* Sows `move` (1..pits) for `side`; returns the side to move next. */
static int play(int move, int pie_first) {
  int cells = 2 * (pits + 1), store = side * (pits + 1) + pits, skip = (1 - side) * (pits + 1) + pits;
  int at = side * (pits + 1) + move - 1, n = board[at];
  board[at] = 0;
  while (n > 0) {
    at = (at + 1) % cells;
    if (at != skip) board[at]++, n--;
  }
  int own = at >= side * (pits + 1) && at < side * (pits + 1) + pits, facing = 2 * pits - at;
  if (own && board[at] == 1 && board[facing] > 0) {
    board[store] += board[facing] + 1;
    board[at] = board[facing] = 0;
  }
  return at == store && !pie_first ? side : 1 - side;
}

int main(void) {
  char line[65536];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    char *word = strtok(line, " \t\r\n");
    if (!word) continue;
    if (!strcmp(word, "kep")) {
      printf("id name ada\nid author Ada (example)\nkepok\n");
    } else if (!strcmp(word, "isready")) {
      printf("readyok\n");
    } else if (!strcmp(word, "newgame")) {
      pie = 0;
      while ((word = strtok(NULL, " \t\r\n"))) {
        if (!strncmp(word, "pits=", 5)) pits = atoi(word + 5);
        if (!strncmp(word, "seeds=", 6)) seeds = atoi(word + 6);
        if (!strcmp(word, "pie=on")) pie = 1;
      }
    } else if (!strcmp(word, "position")) {
      for (int i = 0; i < 2 * (pits + 1); i++) board[i] = i % (pits + 1) == pits ? 0 : seeds;
      side = 0;
      int plies = 0;
      while ((word = strtok(NULL, " \t\r\n"))) {
        if (!strcmp(word, "startpos") || !strcmp(word, "moves")) continue;
        if (strcmp(word, "swap")) side = play(atoi(word), pie && plies == 0);
        plies++;
      }
    } else if (!strcmp(word, "go")) {
      int move = pits;
      while (move > 1 && board[side * (pits + 1) + move - 1] == 0) move--;
      printf("bestmove %d\n", move);
    } else if (!strcmp(word, "quit")) {
      return 0;
    }
  }
  return 0;
}
