#pragma once

#include "common/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ckpt {

// One hyperparameter value as CANDLE holds it after eval() of an INI value or
// argparse of a command-line word: None, bool, int, float, str or a list.
class HyperValue
{
public:
    enum class Kind
    {
        Null,
        Bool,
        Int,
        Double,
        String,
        List
    };
    using List = std::vector<HyperValue>;

    HyperValue() = default;
    static HyperValue null() { return HyperValue(); }
    static HyperValue fromBool(bool v) { return HyperValue(Data(std::in_place_index<1>, v)); }
    static HyperValue fromInt(std::int64_t v)
    {
        return HyperValue(Data(std::in_place_index<2>, v));
    }
    static HyperValue fromDouble(double v) { return HyperValue(Data(std::in_place_index<3>, v)); }
    static HyperValue fromString(std::string v)
    {
        return HyperValue(Data(std::in_place_index<4>, std::move(v)));
    }
    static HyperValue fromList(List v)
    {
        return HyperValue(Data(std::in_place_index<5>, std::move(v)));
    }

    // Parses a Python literal: 'str', "str", 12, -3, 1e-3, .5, True, False,
    // None, [1, 2.0, 'a'], (1, 2) (kept as a list). The error says what is wrong
    // at which column; callers prefix the file and line.
    static Result<HyperValue> parseLiteral(std::string_view text);

    // A command-line word: a Python literal when it is one, the word itself
    // as a string otherwise (argparse hands benchmarks strings).
    static HyperValue fromWord(std::string_view word);

    Kind kind() const { return static_cast<Kind>(m_data.index()); }
    bool isNull() const { return kind() == Kind::Null; }

    // Typed views with CANDLE's conversions: str2bool accepts yes/true/t/y/1
    // and no/false/f/n/0 (any case); numbers convert from numeric strings.
    Result<bool> toBool() const;
    Result<std::int64_t> toInt() const;
    Result<double> toDouble() const;
    // str(value) for strings and numbers; lists and None in Python form.
    std::string toString() const;
    const List* list() const { return std::get_if<5>(&m_data); }

    // The Python literal text (repr): 'str', True, None, 0.001, [1, 2].
    std::string pythonLiteral() const;

    bool operator==(const HyperValue& other) const { return m_data == other.m_data; }

    // Equal as the program would see them: numbers by value (1 == 1.0,
    // 1e-3 == 0.001, nan == nan), a bool and a boolean word (True == 'true'),
    // a number and a numeric string, lists (tuples) element by element.
    bool equivalent(const HyperValue& other) const;

private:
    using Data = std::variant<std::monostate, bool, std::int64_t, double, std::string, List>;
    explicit HyperValue(Data data) : m_data(std::move(data)) {}
    Data m_data;
};

} // namespace ckpt
