/* The part of libyaml's binary interface _fastbuild.c uses, declared here so that building it
 * needs no libyaml headers: the functions are found at run time in ruamel.yaml.clib's shared
 * object (see _fastbuild.c), never linked.
 *
 * These are libyaml's public types as every release since 0.1 lays them out (its soname,
 * libyaml-0.so.2, has not changed since): an event is its type, a union of per-type data and
 * two marks. The parser is opaque here; libyaml's is about 480 bytes on 64-bit systems, and a
 * caller only provides the room for it. Before _fastbuild uses a library, it parses a probe text
 * and checks every field it reads (types, marks, values, anchors, tags, styles), so a library
 * laid out otherwise is never used.
 */
#ifndef K8SMIGRATE_LIBYAML_ABI_H
#define K8SMIGRATE_LIBYAML_ABI_H

#include <stddef.h>

typedef unsigned char yaml_char_t;

typedef enum { YAML_ANY_ENCODING, YAML_UTF8_ENCODING, YAML_UTF16LE_ENCODING, YAML_UTF16BE_ENCODING } yaml_encoding_t;

typedef struct {
    size_t index;
    size_t line;
    size_t column;
} yaml_mark_t;

typedef enum {
    YAML_ANY_SCALAR_STYLE,
    YAML_PLAIN_SCALAR_STYLE,
    YAML_SINGLE_QUOTED_SCALAR_STYLE,
    YAML_DOUBLE_QUOTED_SCALAR_STYLE,
    YAML_LITERAL_SCALAR_STYLE,
    YAML_FOLDED_SCALAR_STYLE
} yaml_scalar_style_t;

typedef enum { YAML_ANY_SEQUENCE_STYLE, YAML_BLOCK_SEQUENCE_STYLE, YAML_FLOW_SEQUENCE_STYLE } yaml_sequence_style_t;

typedef enum { YAML_ANY_MAPPING_STYLE, YAML_BLOCK_MAPPING_STYLE, YAML_FLOW_MAPPING_STYLE } yaml_mapping_style_t;

typedef enum {
    YAML_NO_EVENT,
    YAML_STREAM_START_EVENT,
    YAML_STREAM_END_EVENT,
    YAML_DOCUMENT_START_EVENT,
    YAML_DOCUMENT_END_EVENT,
    YAML_ALIAS_EVENT,
    YAML_SCALAR_EVENT,
    YAML_SEQUENCE_START_EVENT,
    YAML_SEQUENCE_END_EVENT,
    YAML_MAPPING_START_EVENT,
    YAML_MAPPING_END_EVENT
} yaml_event_type_t;

typedef struct {
    int major;
    int minor;
} yaml_version_directive_t;

typedef struct {
    yaml_char_t *handle;
    yaml_char_t *prefix;
} yaml_tag_directive_t;

typedef struct {
    yaml_event_type_t type;
    union {
        struct {
            yaml_encoding_t encoding;
        } stream_start;
        struct {
            yaml_version_directive_t *version_directive;
            struct {
                yaml_tag_directive_t *start;
                yaml_tag_directive_t *end;
            } tag_directives;
            int implicit;
        } document_start;
        struct {
            int implicit;
        } document_end;
        struct {
            yaml_char_t *anchor;
        } alias;
        struct {
            yaml_char_t *anchor;
            yaml_char_t *tag;
            yaml_char_t *value;
            size_t length;
            int plain_implicit;
            int quoted_implicit;
            yaml_scalar_style_t style;
        } scalar;
        struct {
            yaml_char_t *anchor;
            yaml_char_t *tag;
            int implicit;
            yaml_sequence_style_t style;
        } sequence_start;
        struct {
            yaml_char_t *anchor;
            yaml_char_t *tag;
            int implicit;
            yaml_mapping_style_t style;
        } mapping_start;
    } data;
    yaml_mark_t start_mark;
    yaml_mark_t end_mark;
} yaml_event_t;

typedef struct yaml_parser_s yaml_parser_t; /* opaque: only pointed to */

#endif
