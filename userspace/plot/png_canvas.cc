#include "png_canvas.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <fstream>

namespace mrc::plot {

namespace {

uint32_t crc32(const uint8_t *p, size_t n, uint32_t crc = 0) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};

        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;

            for (int k = 0; k < 8; k++)
                c = (c & 1U) ? 0xedb88320U ^ (c >> 1U) : c >> 1U;
            t[i] = c;
        }
        return t;
    }();

    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 0xffU] ^ (crc >> 8U);
    return ~crc;
}

void put32(std::vector<uint8_t> &out, uint32_t v) {
    out.push_back(static_cast<uint8_t>(v >> 24U));
    out.push_back(static_cast<uint8_t>(v >> 16U));
    out.push_back(static_cast<uint8_t>(v >> 8U));
    out.push_back(static_cast<uint8_t>(v));
}

void chunk(std::vector<uint8_t> &out, const char *type, const std::vector<uint8_t> &data) {
    std::vector<uint8_t> body(type, type + 4);

    body.insert(body.end(), data.begin(), data.end());
    put32(out, static_cast<uint32_t>(data.size()));
    out.insert(out.end(), body.begin(), body.end());
    put32(out, crc32(body.data(), body.size()));
}

// A zlib stream of stored (uncompressed) deflate blocks.
std::vector<uint8_t> zlib_stored(const std::vector<uint8_t> &raw) {
    constexpr size_t kBlock = 65535;
    std::vector<uint8_t> out = {0x78, 0x01};
    uint32_t a = 1;
    uint32_t b = 0;

    for (size_t off = 0; off < raw.size() || off == 0; off += kBlock) {
        const size_t n = std::min(kBlock, raw.size() - off);
        const bool last = off + n >= raw.size();

        out.push_back(last ? 1 : 0);
        out.push_back(static_cast<uint8_t>(n));
        out.push_back(static_cast<uint8_t>(n >> 8U));
        out.push_back(static_cast<uint8_t>(~n));
        out.push_back(static_cast<uint8_t>(~n >> 8U));
        out.insert(out.end(), raw.begin() + static_cast<std::ptrdiff_t>(off),
                   raw.begin() + static_cast<std::ptrdiff_t>(off + n));
        if (last)
            break;
    }
    for (uint8_t byte : raw) {
        a = (a + byte) % 65521U;
        b = (b + a) % 65521U;
    }
    put32(out, (b << 16U) | a);
    return out;
}

} // namespace

Canvas::Canvas(uint32_t width, uint32_t height, Rgb background)
    : width_(width), height_(height), rgb_(static_cast<size_t>(width) * height * 3) {
    for (size_t i = 0; i < rgb_.size(); i += 3) {
        rgb_[i] = background.r;
        rgb_[i + 1] = background.g;
        rgb_[i + 2] = background.b;
    }
}

void Canvas::pixel(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= static_cast<int>(width_) || y >= static_cast<int>(height_))
        return;
    const size_t i = (static_cast<size_t>(y) * width_ + static_cast<size_t>(x)) * 3;

    rgb_[i] = c.r;
    rgb_[i + 1] = c.g;
    rgb_[i + 2] = c.b;
}

// Bresenham
void Canvas::line(int x0, int y0, int x1, int y1, Rgb c) {
    const int dx = std::abs(x1 - x0);
    const int dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1;
    const int sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;

    for (;;) {
        pixel(x0, y0, c);
        if (x0 == x1 && y0 == y1)
            return;
        const int e2 = 2 * err;

        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

namespace {

// Each glyph's five rows, top first, three bits each (4 = left column).
struct Glyph {
    char c;
    std::array<uint8_t, 5> rows;
};

constexpr std::array<Glyph, 49> kFont = {{
        {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}},
        {'3', {7, 1, 7, 1, 7}}, {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}},
        {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}}, {'8', {7, 5, 7, 5, 7}},
        {'9', {7, 5, 7, 1, 7}}, {'a', {2, 5, 7, 5, 5}}, {'b', {6, 5, 6, 5, 6}},
        {'c', {3, 4, 4, 4, 3}}, {'d', {6, 5, 5, 5, 6}}, {'e', {7, 4, 6, 4, 7}},
        {'f', {7, 4, 6, 4, 4}}, {'g', {3, 4, 5, 5, 3}}, {'h', {5, 5, 7, 5, 5}},
        {'i', {7, 2, 2, 2, 7}}, {'j', {1, 1, 1, 5, 2}}, {'k', {5, 5, 6, 5, 5}},
        {'l', {4, 4, 4, 4, 7}}, {'m', {5, 7, 7, 5, 5}}, {'n', {6, 5, 5, 5, 5}},
        {'o', {2, 5, 5, 5, 2}}, {'p', {6, 5, 6, 4, 4}}, {'q', {2, 5, 5, 6, 3}},
        {'r', {6, 5, 6, 5, 5}}, {'s', {3, 4, 2, 1, 6}}, {'t', {7, 2, 2, 2, 2}},
        {'u', {5, 5, 5, 5, 7}}, {'v', {5, 5, 5, 5, 2}}, {'w', {5, 5, 7, 7, 5}},
        {'x', {5, 5, 2, 5, 5}}, {'y', {5, 5, 2, 2, 2}}, {'z', {7, 1, 2, 4, 7}},
        {'.', {0, 0, 0, 0, 2}}, {':', {0, 2, 0, 2, 0}}, {'-', {0, 0, 7, 0, 0}},
        {'=', {0, 7, 0, 7, 0}}, {'/', {1, 1, 2, 4, 4}}, {'%', {5, 1, 2, 4, 5}},
        {'(', {1, 2, 2, 2, 1}}, {')', {4, 2, 2, 2, 4}}, {',', {0, 0, 0, 2, 4}},
        {'<', {1, 2, 4, 2, 1}}, {'>', {4, 2, 1, 2, 4}}, {'+', {0, 2, 7, 2, 0}},
        {'_', {0, 0, 0, 0, 7}},
}};

} // namespace

void Canvas::block(int x, int y, int size, Rgb c) {
    for (int k = 0; k < size * size; k++)
        pixel(x + k % size, y + k / size, c);
}

void Canvas::text(int x, int y, std::string_view text, Rgb c, int scale) {
    for (const char ch : text) {
        const auto *g = std::find_if(kFont.begin(), kFont.end(),
                                     [ch](const Glyph &glyph) { return glyph.c == ch; });

        for (int row = 0; g != kFont.end() && row < 5; row++) {
            for (int col = 0; col < 3; col++) {
                if (g->rows[static_cast<size_t>(row)] & (4U >> static_cast<unsigned>(col)))
                    block(x + col * scale, y + row * scale, scale, c);
            }
        }
        x += kGlyphWidth * scale;
    }
}

bool Canvas::write_png(const std::string &path) const {
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    std::vector<uint8_t> raw;

    put32(ihdr, width_);
    put32(ihdr, height_);
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8-bit RGB, no interlace
    chunk(png, "IHDR", ihdr);
    for (uint32_t y = 0; y < height_; y++) {
        const auto row = rgb_.begin() + static_cast<std::ptrdiff_t>(y) * width_ * 3;

        raw.push_back(0); // filter: none
        raw.insert(raw.end(), row, row + static_cast<std::ptrdiff_t>(width_) * 3);
    }
    chunk(png, "IDAT", zlib_stored(raw));
    chunk(png, "IEND", {});
    std::ofstream out(path, std::ios::binary);

    out.write(reinterpret_cast<const char *>(png.data()), static_cast<std::streamsize>(png.size()));
    return static_cast<bool>(out);
}

} // namespace mrc::plot
