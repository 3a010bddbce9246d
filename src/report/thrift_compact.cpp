#include "report/thrift_compact.hpp"

#include "kscope/errors.hpp"

namespace kscope::report {

void ThriftWriter::varint(std::uint64_t v) {
  while (v >= 0x80) {
    out_ += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out_ += static_cast<char>(v);
}

void ThriftWriter::zigzag(std::int64_t v) {
  varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}

void ThriftWriter::field(int id, ThriftType type) {
  const int delta = id - last_.back();
  if (delta > 0 && delta <= 15) {
    out_ += static_cast<char>((delta << 4) | static_cast<int>(type));
  } else {
    out_ += static_cast<char>(type);
    zigzag(id);
  }
  last_.back() = id;
}

void ThriftWriter::end_struct() {
  out_ += static_cast<char>(ThriftType::kStop);
  last_.pop_back();
}

void ThriftWriter::field_bool(int id, bool value) {
  field(id, value ? ThriftType::kTrue : ThriftType::kFalse);
}

void ThriftWriter::field_i32(int id, std::int32_t value) {
  field(id, ThriftType::kI32);
  zigzag(value);
}

void ThriftWriter::field_i64(int id, std::int64_t value) {
  field(id, ThriftType::kI64);
  zigzag(value);
}

void ThriftWriter::field_binary(int id, std::string_view value) {
  field(id, ThriftType::kBinary);
  element_binary(value);
}

void ThriftWriter::element_binary(std::string_view value) {
  varint(value.size());
  out_.append(value.data(), value.size());
}

void ThriftWriter::field_struct(int id) {
  field(id, ThriftType::kStruct);
  begin_struct();
}

void ThriftWriter::field_list(int id, ThriftType element, std::size_t size) {
  field(id, ThriftType::kList);
  if (size < 15) {
    out_ += static_cast<char>((size << 4) | static_cast<std::size_t>(element));
  } else {
    out_ += static_cast<char>(0xF0 | static_cast<int>(element));
    varint(size);
  }
}

std::uint8_t ThriftReader::byte() {
  if (p_ >= end_) throw FileFormatError("Thrift data ends early");
  return static_cast<std::uint8_t>(*p_++);
}

std::uint64_t ThriftReader::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const std::uint8_t b = byte();
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
  throw FileFormatError("Thrift varint longer than 10 bytes");
}

std::int64_t ThriftReader::zigzag() {
  const std::uint64_t v = varint();
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

ThriftReader::Field ThriftReader::next_field() {
  const std::uint8_t b = byte();
  Field f;
  f.type = static_cast<ThriftType>(b & 0x0F);
  if (f.type == ThriftType::kStop) {
    last_.pop_back();
    return f;
  }
  const int delta = b >> 4;
  f.id = delta ? last_.back() + delta : static_cast<int>(zigzag());
  last_.back() = f.id;
  if (static_cast<int>(f.type) > static_cast<int>(ThriftType::kStruct)) {
    throw FileFormatError("Thrift field of unknown type " + std::to_string(b & 0x0F));
  }
  return f;
}

std::int32_t ThriftReader::read_i32() {
  const std::int64_t v = zigzag();
  if (v < INT32_MIN || v > INT32_MAX) throw FileFormatError("Thrift i32 out of range");
  return static_cast<std::int32_t>(v);
}

std::int64_t ThriftReader::read_i64() { return zigzag(); }

std::string ThriftReader::read_binary() {
  const std::uint64_t n = varint();
  if (n > static_cast<std::uint64_t>(end_ - p_)) throw FileFormatError("Thrift string ends early");
  std::string s(p_, static_cast<std::size_t>(n));
  p_ += n;
  return s;
}

std::pair<ThriftType, std::size_t> ThriftReader::read_list() {
  const std::uint8_t b = byte();
  std::size_t size = b >> 4;
  if (size == 15) size = static_cast<std::size_t>(varint());
  // Every element takes at least one byte (booleans included): a larger count is a lie.
  if (size > static_cast<std::size_t>(end_ - p_)) throw FileFormatError("Thrift list ends early");
  return {static_cast<ThriftType>(b & 0x0F), size};
}

void ThriftReader::skip(ThriftType type) {
  if (++depth_ > 64) throw FileFormatError("Thrift values nested deeper than 64");
  switch (type) {
    case ThriftType::kTrue:
    case ThriftType::kFalse: break;  // a field's value is its type (a list element: a byte)
    case ThriftType::kByte: byte(); break;
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64: varint(); break;
    case ThriftType::kDouble:
      for (int i = 0; i < 8; ++i) byte();
      break;
    case ThriftType::kBinary: read_binary(); break;
    case ThriftType::kList:
    case ThriftType::kSet: {
      const auto [element, size] = read_list();
      for (std::size_t i = 0; i < size; ++i) {
        if (element == ThriftType::kTrue || element == ThriftType::kFalse) {
          byte();
        } else {
          skip(element);
        }
      }
      break;
    }
    case ThriftType::kMap: {
      const std::uint64_t size = varint();
      if (size == 0) break;
      const std::uint8_t types = byte();
      for (std::uint64_t i = 0; i < size; ++i) {
        skip(static_cast<ThriftType>(types >> 4));
        skip(static_cast<ThriftType>(types & 0x0F));
      }
      break;
    }
    case ThriftType::kStruct:
      begin_struct();
      for (Field f = next_field(); !f.stop(); f = next_field()) skip(f.type);
      break;
    default: throw FileFormatError("Thrift value of unknown type");
  }
  --depth_;
}

}  // namespace kscope::report
