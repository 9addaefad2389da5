/*
 * Timing helpers shared by the C baselines of bench/h200.ts: a monotonic clock in microseconds,
 * SAMPLES timed repetitions of a loop, and their median/min/max as a JSON member.
 */
#ifndef LOOM_BENCH_TIMING_H
#define LOOM_BENCH_TIMING_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SAMPLES 5

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts the samples and prints `"name": {"median": …, "min": …, "max": …}` (no separator). */
static void print_samples(const char *name, double *samples) {
  qsort(samples, SAMPLES, sizeof(double), cmp_double);
  printf("\"%s\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}", name, samples[SAMPLES / 2], samples[0], samples[SAMPLES - 1]);
}

/* Runs `body` `iterations` times and stores microseconds per iteration in `*sample`; `after`
 * runs outside the timed span (a synchronize, so the next sample starts from an idle queue). */
#define TIME_PER_ITERATION(sample, iterations, body, after) do { \
    double t0_ = now_us(); \
    for (int i_ = 0; i_ < (iterations); i_++) { body; } \
    *(sample) = (now_us() - t0_) / (iterations); \
    after; \
  } while (0)

#endif
