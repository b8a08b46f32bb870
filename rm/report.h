/*
 * report.h - how test programs report: one console line per case,
 * "test NAME: ok" or "test NAME: FAIL reason", which tests/run.sh counts.
 */
#ifndef RM_REPORT_H
#define RM_REPORT_H

/* Print the verdict for one case; returns ok. */
int hr_report(const char *name, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ok iff got == want; the failure line names both as HR_E* names where they are codes. */
int hr_report_eq(const char *name, long got, long want);

#endif
