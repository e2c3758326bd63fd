/* version: the build's version (`git describe --always --dirty`), from one generated file
 * (the Makefile's $(BUILD)/gen/version.c), so every binary of a build reports the same. */
#ifndef KOPT_VERSION_H
#define KOPT_VERSION_H

extern const char kopt_version[];

/* A User-Agent header value: "koptctl/" or "kopt-worker/" and the version. */
#define KOPT_USER_AGENT_MAX 96

#endif
