#pragma once
#include <cstdint>

namespace ctwin::views {

/// An 8-bit sRGB colour: what the scene builders hand to VTK (direct scalars) and what tests compare.
struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;

    static constexpr Rgb fromHex(std::uint32_t hex) {
        return {static_cast<std::uint8_t>((hex >> 16) & 0xff), static_cast<std::uint8_t>((hex >> 8) & 0xff),
                static_cast<std::uint8_t>(hex & 0xff)};
    }
    bool operator==(const Rgb&) const = default;
};

} // namespace ctwin::views
