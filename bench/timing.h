/* SPDX-License-Identifier: MIT */
/*
 * timing.h - the timing core of every aesecb speed measurement: 'aesecb
 * bench', bench/peers and tests/bench_none.
 *
 * Method: the iteration count is calibrated by doubling until one run
 * takes an eighth of a repetition, one untimed repetition warms up, then
 * the timed repetitions follow.  The fastest repetition during which the
 * thread kept the CPU (its CPU time at least 97% of its wall time) is
 * reported; if none did, the one with the least CPU time, flagged.
 * Cycles are time-stamp counter ticks on x86, read around each repetition;
 * elsewhere callers scale nanoseconds by bench_core_ghz().
 */
#ifndef AESECB_BENCH_TIMING_H
#define AESECB_BENCH_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_REPS 20       /* timed repetitions per figure */
#define BENCH_MAX_REPS 25

#if defined(__x86_64__) || defined(__i386__)
#define BENCH_HAVE_TSC 1
#else
#define BENCH_HAVE_TSC 0
#endif

/* Results of measured loops are folded in here, so no work is dropped. */
extern volatile uint64_t bench_sink;

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);

/* CPU time this thread has had, in nanoseconds; 0 where there is no such
 * clock. */
uint64_t bench_cpu_ns(void);

/* The time-stamp counter (x86), else 0. */
uint64_t bench_ticks(void);

/* A measured loop: n calls of the work on arg. */
typedef void bench_fn(void *arg, uint64_t n);

struct bench_meas {
	double ns, ns_median, ticks;  /* per call of the run function */
	uint64_t iters;               /* calls per timed repetition */
	int descheduled;              /* no repetition had the CPU */
};

/* Measure fn for about target_ns in all, over reps (at most
 * BENCH_MAX_REPS) timed repetitions. */
void bench_measure(bench_fn *fn, void *arg, double target_ns, int reps,
                   struct bench_meas *m);

/* The core clock in GHz, measured for about dur_ns from two chains of
 * dependent instructions no core can shorten (x86: multiplications of 3
 * cycles and register additions of 1), or 0 (unknown) when the two
 * disagree by more than 10%; *descheduled as in bench_meas. */
double bench_core_ghz(double dur_ns, int *descheduled);

/* TSC ticks per nanosecond, measured over about dur_ns (0 without TSC). */
double bench_tsc_ghz(uint64_t dur_ns);

/* The CPU's model name from /proc/cpuinfo, or "unknown". */
void bench_cpu_model(char *buf, size_t size);

/* The first CPU's "cpu family", "model" and "stepping" from /proc/cpuinfo
 * as "family F, model M, stepping S" (x86; a virtual machine's model name
 * often names no model), or "" where they are not listed. */
void bench_cpu_ident(char *buf, size_t size);

#endif
