/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_FIXTURE_READER_HPP
#define XTENSOR_NAMED_TESTS_FIXTURE_READER_HPP

// Reads the fixture files that tests/fixtures/generate_*.py write from numpy and xarray.
//
// Format: one case per block; a block starts with a line `case`, then lines `key token token ...`
// (tokens separated by single spaces; a key with no tokens is an empty list), and ends with `end`.
// Lines starting with `#` are comments. Floats are written with Python's repr (round-trip exact),
// `nan`, `inf` and `-inf` included.

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef XTENSOR_NAMED_FIXTURE_DIR
#error "XTENSOR_NAMED_FIXTURE_DIR must name the tests/fixtures folder"
#endif

namespace fixtures
{
    class fixture_case
    {
    public:

        std::size_t line = 0;
        std::map<std::string, std::vector<std::string>> fields;

        bool has(const std::string& key) const
        {
            return fields.count(key) != 0;
        }

        const std::vector<std::string>& strings(const std::string& key) const
        {
            auto it = fields.find(key);
            if (it == fields.end())
            {
                throw std::runtime_error("fixture case at line " + std::to_string(line) + " has no key " +
                                         key);
            }
            return it->second;
        }

        const std::string& string(const std::string& key) const
        {
            const auto& s = strings(key);
            if (s.size() != 1)
            {
                throw std::runtime_error("fixture key " + key + " is not a single token");
            }
            return s.front();
        }

        std::vector<std::int64_t> ints(const std::string& key) const
        {
            std::vector<std::int64_t> out;
            for (const auto& t : strings(key))
            {
                out.push_back(std::stoll(t));
            }
            return out;
        }

        std::vector<double> doubles(const std::string& key) const
        {
            std::vector<double> out;
            for (const auto& t : strings(key))
            {
                out.push_back(std::strtod(t.c_str(), nullptr));
            }
            return out;
        }
    };

    /// All cases of `tests/fixtures/<name>`; throws when the file is missing or malformed.
    inline std::vector<fixture_case> read(const std::string& name)
    {
        const std::string path = std::string(XTENSOR_NAMED_FIXTURE_DIR) + "/" + name;
        std::ifstream in(path);
        if (!in)
        {
            throw std::runtime_error("cannot open fixture file " + path);
        }
        std::vector<fixture_case> cases;
        fixture_case current;
        bool inside = false;
        std::string text;
        std::size_t line_number = 0;
        while (std::getline(in, text))
        {
            ++line_number;
            if (text.empty() || text.front() == '#')
            {
                continue;
            }
            if (text == "case")
            {
                current = fixture_case();
                current.line = line_number;
                inside = true;
                continue;
            }
            if (text == "end")
            {
                if (!inside)
                {
                    throw std::runtime_error(path + ":" + std::to_string(line_number) + ": end without case");
                }
                cases.push_back(current);
                inside = false;
                continue;
            }
            if (!inside)
            {
                throw std::runtime_error(path + ":" + std::to_string(line_number) + ": field outside a case");
            }
            std::istringstream words(text);
            std::string key;
            words >> key;
            std::vector<std::string> tokens;
            std::string token;
            while (words >> token)
            {
                tokens.push_back(token);
            }
            current.fields[key] = tokens;
        }
        if (inside)
        {
            throw std::runtime_error(path + ": last case has no end");
        }
        return cases;
    }
} // namespace fixtures

#endif
