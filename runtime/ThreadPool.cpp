// Halo's parallel loops: a thread pool of its own instead of OpenMP's.
//
// Why not OpenMP: libgomp's idle workers spin for a long time (300,000 iterations by default)
// before they sleep, and its policy is read from the environment once, when the library loads.
// On a machine loaded by other processes, a pipeline with many short parallel loops then
// spends its time slices spinning against them (a breadth-first CNN: 1,076-1,588 ms instead
// of 246 ms with OMP_WAIT_POLICY=passive). Here workers spin only briefly (enough to catch
// the next loop of the same pipeline on an idle machine) and then sleep; the calling thread
// always works on its own loop, so a loop finishes even if no worker gets a core.
//
// Any number of threads may run parallel loops at once (concurrent realizations share the
// pool), and a loop body may itself run a parallel loop (nested parallelism).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "HaloRuntime.h"

namespace {

// One parallel loop in flight. It lives on its caller's stack: the caller takes it out of the
// queue and waits until no worker holds it before returning.
struct Job {
    halo_task_t body;
    void *closure;
    int32_t min, extent;
    int max_helpers = 0;             // workers that may join (threads - 1)
    std::atomic<int32_t> next{0};    // the next index to claim (counted from 0)
    std::atomic<int32_t> result{0};  // the first nonzero code an iteration returned
    int helpers = 0;                 // workers holding it (under the pool's mutex)

    // Claims and runs iterations until none is left. After a failure the rest are skipped.
    void work() {
        for (;;) {
            int32_t k = next.fetch_add(1, std::memory_order_relaxed);
            if (k >= extent) return;
            if (result.load(std::memory_order_relaxed) != 0) continue;
            int32_t r = body(closure, int32_t(int64_t(min) + k));
            if (r != 0) {
                int32_t expected = 0;
                result.compare_exchange_strong(expected, r);
            }
        }
    }
    bool exhausted() const { return next.load(std::memory_order_relaxed) >= extent; }
};

int threads_from_environment() {
    for (const char *name : {"HALO_NUM_THREADS", "OMP_NUM_THREADS"}) {
        const char *v = std::getenv(name);
        if (v && std::atoi(v) > 0) return std::atoi(v);
    }
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? int(n) : 1;
}

class ThreadPool {
public:
    // Runs the loop on the calling thread and up to threads - 1 workers.
    int32_t run(halo_task_t body, int32_t min, int32_t extent, void *closure) {
        Job job;
        job.body = body;
        job.closure = closure;
        job.min = min;
        job.extent = extent;
        int helpers_wanted = std::min(threads() - 1, extent - 1);
        if (helpers_wanted > 0) {
            std::unique_lock<std::mutex> lock(mutex_);
            start_workers_locked(threads() - 1);
            job.max_helpers = helpers_wanted;
            jobs_.push_back(&job);
            queued_.fetch_add(1, std::memory_order_release);
            lock.unlock();
            if (helpers_wanted == 1) wake_.notify_one();
            else wake_.notify_all();
        }
        job.work();
        if (helpers_wanted > 0) {
            std::unique_lock<std::mutex> lock(mutex_);
            remove_locked(&job);
            // Helpers still running claimed iterations: wait for them (they notify when they
            // let go of the job).
            done_.wait(lock, [&] { return job.helpers == 0; });
        }
        return job.result.load();
    }

    int threads() const { return threads_.load(std::memory_order_relaxed); }
    int set_threads(int n) { return threads_.exchange(n > 0 ? n : threads_from_environment()); }

private:
    // Spins before a worker sleeps: about 20-50 microseconds, enough to pick up the next
    // parallel loop of a pipeline (they follow each other closely) without a wake-up, short
    // enough not to steal much from other processes on a loaded machine.
    static constexpr int kSpins = 2000;

    void start_workers_locked(int n) {
        while (int(workers_.size()) < n) workers_.emplace_back([this] { worker_loop(); });
    }

    void remove_locked(Job *job) {
        for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
            if (*it == job) {
                jobs_.erase(it);
                queued_.fetch_sub(1, std::memory_order_relaxed);
                return;
            }
        }
    }

    // A job a worker may join: work left and room for another helper. Exhausted jobs leave
    // the queue here (their callers would remove them too; whoever comes first).
    Job *pick_locked() {
        for (auto it = jobs_.begin(); it != jobs_.end();) {
            Job *job = *it;
            if (job->exhausted()) {
                it = jobs_.erase(it);
                queued_.fetch_sub(1, std::memory_order_relaxed);
                continue;
            }
            if (job->helpers < job->max_helpers) return job;
            ++it;
        }
        return nullptr;
    }

    void worker_loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            Job *job = pick_locked();
            if (!job) {
                // Spin a little without the lock, then sleep until a job arrives.
                lock.unlock();
                for (int i = 0; i < kSpins && queued_.load(std::memory_order_acquire) == 0; i++) {
#if defined(__x86_64__) || defined(__i386__)
                    __builtin_ia32_pause();
#endif
                }
                lock.lock();
                job = pick_locked();
                if (!job) {
                    wake_.wait(lock);
                    continue;
                }
            }
            job->helpers++;
            lock.unlock();
            job->work();
            lock.lock();
            if (--job->helpers == 0) done_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;  // workers wait here for jobs
    std::condition_variable done_;  // callers wait here for their helpers
    std::deque<Job *> jobs_;
    std::atomic<int> queued_{0};  // jobs_.size(), readable without the lock
    std::vector<std::thread> workers_;
    std::atomic<int> threads_{threads_from_environment()};
};

// Never destroyed: workers may still be waiting when the process exits.
ThreadPool &pool() {
    static ThreadPool *p = new ThreadPool();
    return *p;
}

}  // namespace

extern "C" {

int32_t halo_parallel_for(void *user_context, halo_task_t body, int32_t min, int32_t extent,
                          void *closure) {
    (void)user_context;
    if (extent <= 0) return 0;
    return pool().run(body, min, extent, closure);
}

int halo_set_num_threads(int n) { return pool().set_threads(n); }
int halo_get_num_threads(void) { return pool().threads(); }

}  // extern "C"
