// The XML reader (expat underneath): what compute-sanitizer's reports contain, and malformed
// input (a clear error with line and column, never a crash).
#include "collect/sanitizer/xml_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::sanitizer {
namespace {

std::string error_of(const std::string& xml) {
  return testing::error_text<ToolError>([&] { (void)parse_xml(xml, "test.xml"); });
}

bool has(const std::string& text, const std::string& part) { return testing::contains(text, part); }

TEST(XmlReaderTest, ElementsTextAndAttributes) {
  const auto root = parse_xml(
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- top -->\n"
      "<a x=\"1\" y='two'>\n  <b>hello</b>\n  <b>world</b><c/>\n  <d k=\"v\" /></a>\n",
      "t");
  EXPECT_EQ(root.name, "a");
  ASSERT_NE(root.attribute("x"), nullptr);
  EXPECT_EQ(*root.attribute("x"), "1");
  EXPECT_EQ(*root.attribute("y"), "two");
  EXPECT_EQ(root.attribute("z"), nullptr);
  ASSERT_EQ(root.children.size(), 4u);
  EXPECT_EQ(root.child_text("b"), "hello");
  EXPECT_EQ(root.children_named("b").size(), 2u);
  EXPECT_EQ(root.children_named("b")[1]->text, "world");
  EXPECT_NE(root.child("c"), nullptr);
  EXPECT_TRUE(root.child("c")->children.empty());
  EXPECT_EQ(*root.child("d")->attribute("k"), "v");
  EXPECT_EQ(root.child("missing"), nullptr);
  EXPECT_EQ(root.child_text("missing"), "");
}

TEST(XmlReaderTest, EntitiesCdataAndCommentsInContent) {
  const auto root = parse_xml(
      "<r a=\"&lt;&amp;&gt;\"><f>cudaError cudaMalloc&lt;int&gt;</f><q>&quot;&apos;</q>"
      "<n>&#65;&#x42;&#xe9;&#x1F600;</n><c><![CDATA[a < b && c]]></c><m>x<!-- no -->y</m></r>",
      "t");
  EXPECT_EQ(*root.attribute("a"), "<&>");
  EXPECT_EQ(root.child_text("f"), "cudaError cudaMalloc<int>");
  EXPECT_EQ(root.child_text("q"), "\"'");
  EXPECT_EQ(root.child_text("n"), "AB\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(root.child_text("c"), "a < b && c");
  EXPECT_EQ(root.child_text("m"), "xy");
}

TEST(XmlReaderTest, DoctypeByteOrderMarkAndSelfClosingRoot) {
  const auto root = parse_xml(
      "\xEF\xBB\xBF<!DOCTYPE r [ <!ENTITY x \"y>\"> ]>\n<ComputeSanitizerOutput/>\n", "t");
  EXPECT_EQ(root.name, "ComputeSanitizerOutput");
  EXPECT_TRUE(root.children.empty());
}

TEST(XmlReaderTest, TruncatedDocumentSaysSoWithPosition) {
  const auto e = error_of("<a>\n  <record>\n    <kind>Pre");
  EXPECT_TRUE(has(e, "cannot read test.xml: line 3")) << e;
  EXPECT_TRUE(has(e, "truncated")) << e;
  EXPECT_TRUE(has(error_of("<a><b x=\"1"), "unterminated value of attribute 'x'"));
  EXPECT_TRUE(has(error_of("<a><b"), "truncated"));
  EXPECT_TRUE(has(error_of("<a><!-- open"), "unterminated comment"));
  EXPECT_TRUE(has(error_of("<a><![CDATA[ x"), "unterminated CDATA"));
}

TEST(XmlReaderTest, EmptyOrTextOnlyDocumentIsAnError) {
  EXPECT_TRUE(has(error_of(""), "empty")) << error_of("");
  EXPECT_TRUE(has(error_of("  \n <!-- c -->"), "no root element"));
  EXPECT_TRUE(has(error_of("hello"), "expected the root element"));
}

TEST(XmlReaderTest, MismatchedTagsAreNamed) {
  const auto e = error_of("<a>\n<b></c></a>");
  EXPECT_TRUE(has(e, "line 2, column 4")) << e;
  EXPECT_TRUE(has(e, "closing tag </c> does not match the open element <b>")) << e;
}

TEST(XmlReaderTest, BadReferencesAreErrors) {
  EXPECT_TRUE(has(error_of("<a>&nbsp;</a>"), "unknown entity '&nbsp;'"));
  EXPECT_TRUE(has(error_of("<a>&#0;</a>"), "invalid character reference"));
  EXPECT_TRUE(has(error_of("<a>&#xD800;</a>"), "invalid character reference"));
  EXPECT_TRUE(has(error_of("<a>&#x110000;</a>"), "invalid character reference"));
  EXPECT_TRUE(has(error_of("<a>&#12a;</a>"), "invalid character reference"));
  EXPECT_TRUE(has(error_of("<a>AT&T</a>"), "'&' that does not start an entity reference"));
}

TEST(XmlReaderTest, MalformedTagsAndAttributes) {
  EXPECT_TRUE(has(error_of("<a x=1></a>"), "expected a quoted value for attribute 'x'"));
  EXPECT_TRUE(has(error_of("<a x=\"1\" x=\"2\"></a>"), "attribute 'x' appears twice"));
  EXPECT_TRUE(has(error_of("<a x=\"1\"y=\"2\"></a>"), "expected whitespace"));
  EXPECT_TRUE(has(error_of("<a x=\"<\"></a>"), "'<' in the value"));
  EXPECT_TRUE(has(error_of("<1a></1a>"), "expected element name"));
  EXPECT_TRUE(has(error_of("<a></a><b/>"), "content after the end of the root element </a>"));
  EXPECT_TRUE(has(error_of("<a><!ELEMENT x></a>"), "unexpected markup declaration"));
}

TEST(XmlReaderTest, CutTagsAndDeclarationsSayWhere) {
  EXPECT_EQ(error_of("<a><b x=\"1"),
            "cannot read test.xml: line 1, column 7: unterminated value of attribute 'x'");
  EXPECT_TRUE(has(error_of("<a x='1' /"), "the document ends inside the tag <a>: the file is"));
  EXPECT_TRUE(has(error_of("<a>x</a"), "ends inside the closing tag </a: the file is truncated"));
  EXPECT_TRUE(has(error_of("<a><?pi"), "unterminated processing instruction"));
  EXPECT_TRUE(has(error_of("<!DOCTYPE r"), "line 1, column 1: unterminated DOCTYPE"));
  EXPECT_TRUE(has(error_of("<a>&am"), "'&' that does not start an entity reference"));
}

TEST(XmlReaderTest, WhatXmlForbidsAndTheOldReaderTookIsNamed) {
  // XML 1.0 has no control characters but tab, newline and carriage return, and "]]>" only
  // ends a CDATA section.
  EXPECT_TRUE(has(error_of("<a>x\x01</a>"), "line 1, column 5: character U+0001 is not allowed"));
  EXPECT_TRUE(has(error_of("<a x='\x02'/>"), "column 7: character U+0002 is not allowed in XML"));
  EXPECT_TRUE(has(error_of("<a>]]></a>"), "column 4: ']]>' in character data (write ]]&gt;)"));
  EXPECT_TRUE(has(error_of("<a x y='1'/>"), "expected '=' after attribute 'x'"));
  EXPECT_TRUE(
      has(error_of("<a x='1' 9/>"), "expected an attribute name, '>' or '/>' in the tag <a>"));
  EXPECT_TRUE(has(error_of("<a></>"), "expected closing tag"));
  // Without a better text, expat's own.
  EXPECT_TRUE(
      has(error_of("<a><?xml version='1.0'?></a>"), "XML or text declaration not at start"));
}

TEST(XmlReaderTest, EntitiesOfADoctypeAreNotExpanded) {
  EXPECT_TRUE(has(error_of("<!DOCTYPE r [ <!ENTITY x \"y\"> ]><r>&x;</r>"),
                  "line 1, column 36: unknown entity '&x;'"));
  EXPECT_TRUE(has(error_of("<!DOCTYPE r SYSTEM \"r.dtd\"><r>&x;</r>"), "unknown entity '&x;'"));
  EXPECT_TRUE(has(error_of("<r><c x='&amp;&bad;'/></r>"), "column 15: unknown entity '&bad;'"));
  EXPECT_TRUE(has(error_of("<!DOCTYPE r [ <!ENTITY x \"y\"> ]>\n<r><c a='&lt;' b='&x;'/></r>"),
                  "line 2, column 19: unknown entity '&x;'"));
}

TEST(XmlReaderTest, TheTextIsUtf8WhateverItsDeclarationSays) {
  const auto root =
      parse_xml("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\xC3\xA9</a>", "t");
  EXPECT_EQ(root.text, "caf\xC3\xA9");
}

TEST(XmlReaderTest, DeepNestingIsRefusedNotACrash) {
  std::string deep;
  for (std::size_t i = 0; i < 100000; ++i) deep += "<e>";
  EXPECT_TRUE(has(error_of(deep), "nested more than 256 levels")) << error_of(deep).substr(0, 200);
  std::string ok;
  for (std::size_t i = 0; i < kMaxXmlDepth; ++i) ok += "<e>";
  for (std::size_t i = 0; i < kMaxXmlDepth; ++i) ok += "</e>";
  EXPECT_EQ(parse_xml(ok, "t").name, "e");
}

TEST(XmlReaderTest, ArbitraryBytesNeverCrash) {
  // Every prefix of a real-looking document, and some binary noise: an error or a tree, never a
  // crash (ASan/UBSan builds check the "never").
  const std::string doc =
      "<?xml version=\"1.0\"?><R><record><kind>Precise</kind><what><text>a &amp; b</text>"
      "</what><x a='1'/><![CDATA[z]]></record></R>";
  for (std::size_t n = 0; n <= doc.size(); ++n) {
    try {
      (void)parse_xml(doc.substr(0, n), "prefix");
    } catch (const ToolError&) {
    }
  }
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise += static_cast<char>((i * 7919) % 256);
  EXPECT_NE(error_of(noise), "no error");
}

}  // namespace
}  // namespace kscope::sanitizer
