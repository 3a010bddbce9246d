#include "subprocess/error_relay.hpp"

#include "kscope/errors.hpp"

namespace kscope::subprocess {

std::string error_kind(const std::exception& e) {
  // Most derived classes first.
  if (dynamic_cast<const CoolingTimeoutError*>(&e)) return "CoolingTimeoutError";
  if (dynamic_cast<const ThermalControlError*>(&e)) return "ThermalControlError";
  if (dynamic_cast<const ToolError*>(&e)) return "ToolError";  // CuptiError included
  if (dynamic_cast<const NotSupportedError*>(&e)) return "NotSupportedError";
  if (dynamic_cast<const NoDeviceError*>(&e)) return "NoDeviceError";
  if (dynamic_cast<const ExtractionError*>(&e)) return "ExtractionError";
  if (dynamic_cast<const AnnotationError*>(&e)) return "AnnotationError";
  if (dynamic_cast<const ConfigError*>(&e)) return "ConfigError";
  if (dynamic_cast<const InvalidArgument*>(&e)) return "InvalidArgument";
  if (dynamic_cast<const Error*>(&e)) return "Error";
  return "exception";
}

void throw_error_of_kind(const std::string& kind, const std::string& message) {
  if (kind == "CoolingTimeoutError") throw CoolingTimeoutError(message);
  if (kind == "ThermalControlError") throw ThermalControlError(message);
  if (kind == "ToolError") throw ToolError(message);
  if (kind == "NotSupportedError") throw NotSupportedError(message);
  if (kind == "NoDeviceError") throw NoDeviceError(message);
  if (kind == "ExtractionError") throw ExtractionError(message);
  if (kind == "AnnotationError") throw AnnotationError(message);
  if (kind == "ConfigError") throw ConfigError(message);
  if (kind == "InvalidArgument") throw InvalidArgument(message);
  throw Error(message);
}

}  // namespace kscope::subprocess
