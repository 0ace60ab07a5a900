#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace ckpt {

// What long work (scan, verify, diff, prune) reports as it goes.
struct ProgressUpdate
{
    std::uint64_t done = 0;  // units finished (bytes, files, tensors: see `unit`)
    std::uint64_t total = 0; // 0 when unknown
    std::string unit;        // "bytes", "epochs", "tensors", ...
    std::string current;     // the item being worked on, for display
};

// Progress reporting and cancellation handed to a synchronous core function.
// The callback may be invoked from worker threads, but never concurrently: the
// core serialises its calls. Cancellation is cooperative: functions poll
// cancelled() between units of work and return an Error saying "cancelled".
class Progress
{
public:
    using Callback = std::function<void(const ProgressUpdate&)>;

    Progress() = default;
    explicit Progress(Callback callback, const std::atomic_bool* cancel = nullptr)
        : m_callback(std::move(callback)), m_cancel(cancel)
    {}

    void report(const ProgressUpdate& update) const
    {
        if (m_callback)
            m_callback(update);
    }
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    bool hasCallback() const { return static_cast<bool>(m_callback); }
    // The flag cancelled() polls, so work done in several passes can relay
    // progress under one total while keeping the caller's cancel.
    const std::atomic_bool* cancelFlag() const { return m_cancel; }

    // One pass of several: reports `outer`'s updates offset by `base` under the
    // running `total`, cancelled by `outer`'s flag. `outer` must outlive it.
    static Progress relay(const Progress& outer, std::uint64_t base, std::uint64_t total)
    {
        if (!outer.hasCallback())
            return Progress(Callback{}, outer.cancelFlag());
        return Progress(
            [&outer, base, total](const ProgressUpdate& u) {
                outer.report(ProgressUpdate{base + u.done, total, u.unit, u.current});
            },
            outer.cancelFlag());
    }

    static const Progress& none()
    {
        static const Progress silent;
        return silent;
    }

private:
    Callback m_callback;
    const std::atomic_bool* m_cancel = nullptr;
};

} // namespace ckpt
