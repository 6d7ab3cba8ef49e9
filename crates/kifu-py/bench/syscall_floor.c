/* The kernel's part of reading many small files, with no interpreter and no parser: for each
 * path on standard input, open, read until a read returns 0 (the end) and close, as kifu.read
 * does with its 64 KiB buffer. Prints the time per file of each kind of call (elapsed time, on
 * the one core the caller pins it to), the fastest of RUNS passes over the list. This is the floor under any reader of these files on this machine (see the
 * README's "Python package" section).
 *
 *   cc -O2 -o /tmp/syscall-floor crates/kifu-py/bench/syscall_floor.c
 *   find DIR -name '*.csa' | sort | taskset -c 0 /tmp/syscall-floor
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { RUNS = 5 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
    size_t count = 0, room = 1024;
    char **paths = malloc(room * sizeof *paths);
    char *line = NULL;
    size_t line_room = 0;
    ssize_t len;
    while ((len = getline(&line, &line_room, stdin)) > 0) {
        if (line[len - 1] == '\n') line[--len] = '\0';
        if (len == 0) continue;
        if (count == room) paths = realloc(paths, (room *= 2) * sizeof *paths);
        paths[count++] = strdup(line);
    }
    if (count == 0) {
        fprintf(stderr, "syscall-floor: give the paths of the files on standard input\n");
        return 2;
    }
    static char buffer[1 << 16];
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int run = 0; run < RUNS; run++) {
        double spent[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < count; i++) {
            double t0 = now();
            int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
            double t1 = now();
            if (fd < 0) {
                perror(paths[i]);
                return 1;
            }
            // Every read that returns bytes counts as "read"; the one that finds the end
            // (returns 0, or fails) as "read at the end".
            double before = t1, after;
            ssize_t got;
            for (;;) {
                got = read(fd, buffer, sizeof buffer);
                after = now();
                if (got <= 0) break;
                spent[1] += after - before;
                before = after;
            }
            if (got < 0) perror(paths[i]);
            double t3 = after;
            close(fd);
            double t4 = now();
            spent[0] += t1 - t0;
            spent[2] += t3 - before;
            spent[3] += t4 - t3;
        }
        double total = spent[0] + spent[1] + spent[2] + spent[3];
        if (total < best[0] + best[1] + best[2] + best[3]) memcpy(best, spent, sizeof best);
    }
    double us = 1e6 / (double)count;
    printf("%zu files, fastest of %d passes, µs per file: open %.2f, read %.2f, read at the end "
           "%.2f, close %.2f; all %.2f\n",
           count, RUNS, best[0] * us, best[1] * us, best[2] * us, best[3] * us,
           (best[0] + best[1] + best[2] + best[3]) * us);
    return 0;
}
