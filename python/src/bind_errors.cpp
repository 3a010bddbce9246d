// kscope::Error and its subclasses -> the classes of the pure-Python module kscope.exceptions.
// Those classes are defined in Python (they derive from ValueError / RuntimeError as the
// nsight-python reference raises those) and handed over once by _register_exceptions().
// Python exceptions raised inside callbacks travel through the engine as nb::python_error and
// are restored unchanged by nanobind, so they never reach this translator.

#include <nanobind/stl/string.h>

#include <map>
#include <string>

#include "bindings.hpp"
#include "kscope/errors.hpp"

namespace kscope::python {
namespace {

// C++ class name -> Python exception type (strong references, kept for the process lifetime:
// exceptions may be raised until the interpreter shuts down).
std::map<std::string, PyObject*>& registry() {
  static auto* types = new std::map<std::string, PyObject*>();
  return *types;
}

void raise(const char* name, const char* what, PyObject* fallback, const int* code = nullptr) {
  auto it = registry().find(name);
  PyObject* type = it != registry().end() ? it->second : fallback;
  PyObject* exc = PyObject_CallFunction(type, "s", what);
  if (exc == nullptr) return;  // the constructor failed: its error is set instead
  if (code != nullptr) {
    PyObject* value = PyLong_FromLong(*code);
    if (value == nullptr || PyObject_SetAttrString(exc, "code", value) != 0) PyErr_Clear();
    Py_XDECREF(value);
  }
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
}

void translate(const std::exception_ptr& p, void* /*payload*/) {
  try {
    std::rethrow_exception(p);
  } catch (const CuptiError& e) {
    const int code = e.code();
    raise("CuptiError", e.what(), PyExc_RuntimeError, &code);
  } catch (const NcuNotAvailableError& e) {
    raise("NcuNotAvailableError", e.what(), PyExc_RuntimeError);
  } catch (const ToolError& e) {
    raise("ToolError", e.what(), PyExc_RuntimeError);
  } catch (const CoolingTimeoutError& e) {
    raise("CoolingTimeoutError", e.what(), PyExc_RuntimeError);
  } catch (const ThermalControlError& e) {
    raise("ThermalControlError", e.what(), PyExc_RuntimeError);
  } catch (const InvalidArgument& e) {
    raise("InvalidArgument", e.what(), PyExc_ValueError);
  } catch (const ConfigError& e) {
    raise("ConfigError", e.what(), PyExc_RuntimeError);
  } catch (const FileFormatError& e) {
    raise("FileFormatError", e.what(), PyExc_ValueError);
  } catch (const AnnotationError& e) {
    raise("AnnotationError", e.what(), PyExc_ValueError);
  } catch (const ExtractionError& e) {
    raise("ExtractionError", e.what(), PyExc_RuntimeError);
  } catch (const NoDeviceError& e) {
    raise("NoDeviceError", e.what(), PyExc_RuntimeError);
  } catch (const NotSupportedError& e) {
    raise("NotSupportedError", e.what(), PyExc_ValueError);
  } catch (const Error& e) {
    raise("Error", e.what(), PyExc_RuntimeError);
  }
}

// Throws the C++ exception named `kind` so that tests can check the translation without a GPU.
[[noreturn]] void test_throw(const std::string& kind, const std::string& message) {
  if (kind == "Error") throw Error(message);
  if (kind == "InvalidArgument") throw InvalidArgument(message);
  if (kind == "ConfigError") throw ConfigError(message);
  if (kind == "FileFormatError") throw FileFormatError(message);
  if (kind == "AnnotationError") throw AnnotationError(message);
  if (kind == "ExtractionError") throw ExtractionError(message);
  if (kind == "NoDeviceError") throw NoDeviceError(message);
  if (kind == "NotSupportedError") throw NotSupportedError(message);
  if (kind == "ToolError") throw ToolError(message);
  if (kind == "CuptiError") throw CuptiError(message, 17);
  if (kind == "NcuNotAvailableError") throw NcuNotAvailableError(message);
  if (kind == "ThermalControlError") throw ThermalControlError(message);
  if (kind == "CoolingTimeoutError") throw CoolingTimeoutError(message);
  throw std::invalid_argument("unknown kscope error class '" + kind + "'");
}

}  // namespace

void bind_errors(nb::module_& m) {
  nb::register_exception_translator(&translate);
  m.def(
      "_register_exceptions",
      [](nb::dict types) {
        for (auto [key, value] : types) {
          if (!PyExceptionClass_Check(value.ptr())) {
            throw nb::type_error("_register_exceptions: values must be exception classes");
          }
          auto& slot = registry()[nb::cast<std::string>(key)];
          Py_XDECREF(slot);
          slot = nb::borrow(value).release().ptr();
        }
      },
      nb::arg("types"),
      "Maps C++ error class names (\"Error\", \"InvalidArgument\", ...) to Python exception "
      "classes. Called once by kscope when it is imported.");
  m.def("_test_throw", &test_throw, nb::arg("kind"), nb::arg("message"),
        "Throws the C++ kscope error class `kind` with `message` (for tests of the mapping).");
}

}  // namespace kscope::python
