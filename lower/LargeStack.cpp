#include "LargeStack.h"

#include <pthread.h>
#include <signal.h>

#include <exception>

namespace halo {

namespace {

thread_local bool on_large_stack = false;

struct Job {
    const std::function<void()> *fn;
    std::exception_ptr error;
};

void *run_job(void *arg) {
    auto *job = static_cast<Job *>(arg);
    on_large_stack = true;
    // LLVM may install a signal stack of its own on this thread (when it registers its signal
    // handlers); the one the thread started with is put back before it exits, because the
    // thread library (or AddressSanitizer) releases whatever is installed then as its own.
    stack_t original_signal_stack;
    bool saved = sigaltstack(nullptr, &original_signal_stack) == 0;
    try {
        (*job->fn)();
    } catch (...) {
        job->error = std::current_exception();
    }
    if (saved) sigaltstack(&original_signal_stack, nullptr);
    return nullptr;
}

}  // namespace

void run_with_large_stack(const std::function<void()> &fn) {
    if (on_large_stack) {
        fn();
        return;
    }
    // Only touched pages of the stack are ever backed by memory.
    const size_t stack_bytes = size_t(256) << 20;
    pthread_attr_t attr;
    pthread_t thread;
    Job job{&fn, nullptr};
    bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
                   pthread_create(&thread, &attr, &run_job, &job) == 0;
    pthread_attr_destroy(&attr);
    if (!started) {
        fn();  // no thread to be had: the caller's stack will have to do
        return;
    }
    pthread_join(thread, nullptr);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace halo
