// The locks of Stage::atomic updates of Tuple-valued Funcs. One value updates atomically with a
// compare-and-swap (CodeGenLLVM's store_atomically); the values of a Tuple cannot, so the
// update of each point runs under a lock named by that point's address (its first value's).
//
// The locks are a fixed table of spin locks, a point's lock chosen by a hash of its address:
// no allocation, nothing to free, and every thread that updates a point takes the same lock.
// Two points may share a lock (more waiting, never a deadlock: a thread holds one lock at a
// time, and nothing inside an update takes another).
#include <atomic>
#include <cstdint>
#include <thread>

#include "HaloRuntime.h"

namespace {

constexpr int kLockBits = 10;

struct alignas(64) SpinLock {  // (a cache line each: neighbouring locks do not contend)
    std::atomic<bool> held{false};
};

SpinLock locks[1 << kLockBits];

SpinLock &lock_of(const void *element) {
    // Fibonacci hashing: the high bits of the product depend on every bit of the address, so
    // the points of a row (addresses a few bytes apart) spread over the table.
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(element)) * 0x9E3779B97F4A7C15ull;
    return locks[h >> (64 - kLockBits)];
}

void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

}  // namespace

extern "C" void halo_atomic_lock(const void *element) {
    SpinLock &lock = lock_of(element);
    int spins = 0;
    while (lock.held.exchange(true, std::memory_order_acquire)) {
        // Wait reading, not writing (no cache line ping-pong); yield when another thread
        // holding the lock has no core to finish on.
        while (lock.held.load(std::memory_order_relaxed)) {
            if (++spins < 64) pause();
            else std::this_thread::yield();
        }
    }
}

extern "C" void halo_atomic_unlock(const void *element) {
    lock_of(element).held.store(false, std::memory_order_release);
}
