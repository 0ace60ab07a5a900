#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ckpt {

// Python's textual forms of numbers, strings and JSON, for files that must match
// what a Python program writes byte for byte (ckpt-info.json, Keras attributes,
// CSVLogger rows, INI literals).
class PythonRepr
{
public:
    // repr(float): shortest round-trip digits, exponent form when the decimal
    // exponent is < -4 or >= 16 ("1e-05", "1e+16", "0.0001", "123.0"), "inf",
    // "-inf", "nan".
    static std::string floatRepr(double value);

    // A float as json.dumps writes it: floatRepr, but Infinity/-Infinity/NaN.
    static std::string jsonFloat(double value);

    // A JSON string literal as json.dumps writes it with ensure_ascii=True:
    // quotes included, non-ASCII as \uXXXX (surrogate pairs above U+FFFF),
    // invalid UTF-8 bytes as \ufffd.
    static std::string jsonString(std::string_view utf8);

    // repr(str) for ASCII-safe text: single quotes unless the text contains a
    // single quote and no double quote, as Python picks.
    static std::string stringRepr(std::string_view text);

    // json.dumps(value) with Python's default separators (", " and ": "), or
    // with `indent` >= 0 the indented form (", " becomes "," at line ends).
    // Integers stay integers, floats use jsonFloat.
    static std::string dumpJson(const nlohmann::ordered_json& value, int indent = -1);
};

} // namespace ckpt
