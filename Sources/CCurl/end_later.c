#include "shim.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

/*
 * A libcurl before 7.87 (no CURLOPT_QUICK_EXIT) that is told to end a transfer whose name
 * lookup still runs waits for the lookup to end: it joins its resolver thread, which returns
 * only when the system resolver gives up (10 s with glibc's defaults, longer with more
 * servers). The runner keeps such transfers in their multi handle until its round is over,
 * then hands the multi handle and them here: they are ended on a thread of their own, so
 * neither the verdict nor the next round waits for a resolver that does not answer. A
 * process that exits first ends that thread with it.
 */

struct netprobe_ending {
    CURLM *multi;
    size_t count, capacity;
    struct {
        CURL *handle;
        struct curl_slist *headers, *resolve;
    } transfers[];
};

struct netprobe_ending *netprobe_ending_new(CURLM *multi, size_t capacity) {
    struct netprobe_ending *ending =
        malloc(sizeof *ending + capacity * sizeof ending->transfers[0]);
    if (ending == NULL) return NULL;
    ending->multi = multi;
    ending->count = 0;
    ending->capacity = capacity;
    return ending;
}

void netprobe_ending_add(struct netprobe_ending *ending, CURL *handle, struct curl_slist *headers,
                         struct curl_slist *resolve) {
    if (ending->count == ending->capacity) return;
    ending->transfers[ending->count].handle = handle;
    ending->transfers[ending->count].headers = headers;
    ending->transfers[ending->count].resolve = resolve;
    ending->count += 1;
}

static void end_now(struct netprobe_ending *ending) {
    for (size_t i = 0; i < ending->count; i++) {
        netprobe_curl.multi_remove_handle(ending->multi, ending->transfers[i].handle);
        netprobe_curl.easy_cleanup(ending->transfers[i].handle);
        netprobe_curl.slist_free_all(ending->transfers[i].headers);
        netprobe_curl.slist_free_all(ending->transfers[i].resolve);
    }
    netprobe_curl.multi_cleanup(ending->multi);
    free(ending);
}

static void *end_on_this_thread(void *ending) {
    /* Signals are the main thread's business (its handlers write to a pipe it polls). */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    end_now(ending);
    return NULL;
}

void netprobe_ending_start(struct netprobe_ending *ending) {
    pthread_attr_t attributes;
    pthread_t thread;
    if (pthread_attr_init(&attributes) != 0) {
        end_now(ending);
        return;
    }
    int started = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) == 0 &&
                  pthread_create(&thread, &attributes, end_on_this_thread, ending) == 0;
    pthread_attr_destroy(&attributes);
    /* No thread to be had: they are ended here, waiting if need be. */
    if (!started) end_now(ending);
}
