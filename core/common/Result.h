#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ckpt {

// The error half of Result: a message a user can act on. It names the file (and
// where in it) and what was expected; `path` repeats the file for programs that
// want to group errors by file.
struct Error
{
    std::string message;
    std::string path;

    static Error at(std::string path, std::string what)
    {
        std::string message = path.empty() ? what : path + ": " + what;
        return Error{std::move(message), std::move(path)};
    }
};

// Value-or-error returned by every fallible core call. Nothing is thrown across
// the core's boundary: HDF5, JSON and filesystem exceptions become an Error.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const noexcept { return m_data.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_data); }

    T valueOr(T fallback) const& { return ok() ? value() : std::move(fallback); }

private:
    std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}

    bool ok() const noexcept { return m_ok; }
    explicit operator bool() const noexcept { return m_ok; }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

using Status = Result<void>;

} // namespace ckpt
