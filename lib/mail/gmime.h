#ifndef MAIL_GMIME_H
#define MAIL_GMIME_H
/*
 * GMime, loaded when a command first builds or reads a message
 * (gmime_load()), not linked: the library and GLib, GObject, GIO and
 * theirs are fifteen shared objects whose loading and constructors
 * would more than double the start of every perfsift process
 * (docs/performance.md), for the two commands that use them.  The functions
 * used are pointers of the prototypes' types in struct gmime_api; the
 * defines below turn the calls of the files that include this header
 * (lib/mail/message.c, cli/cmd-send.c), and those GMime's and GObject's
 * macros expand to, into calls through them.
 */
#include <gmime/gmime.h>

#define GMIME_SONAME "libgmime-3.0.so.0"
#define GMIME_FUNCS(X) \
	X(g_date_time_new_from_unix_utc) \
	X(g_date_time_unref) \
	X(g_mime_data_wrapper_new_with_stream) \
	X(g_mime_format_options_free) \
	X(g_mime_format_options_new) \
	X(g_mime_format_options_set_newline_format) \
	X(g_mime_init) \
	X(g_mime_message_get_cc) \
	X(g_mime_message_get_from) \
	X(g_mime_message_get_to) \
	X(g_mime_message_new) \
	X(g_mime_message_set_date) \
	X(g_mime_message_set_message_id) \
	X(g_mime_message_set_mime_part) \
	X(g_mime_message_set_subject) \
	X(g_mime_multipart_add) \
	X(g_mime_multipart_new_with_subtype) \
	X(g_mime_object_set_disposition) \
	X(g_mime_object_set_header) \
	X(g_mime_object_write_to_stream) \
	X(g_mime_parser_construct_message) \
	X(g_mime_parser_new_with_stream) \
	X(g_mime_part_new_with_type) \
	X(g_mime_part_set_content) \
	X(g_mime_part_set_content_encoding) \
	X(g_mime_part_set_filename) \
	X(g_mime_shutdown) \
	X(g_mime_stream_mem_get_byte_array) \
	X(g_mime_stream_mem_new) \
	X(g_mime_stream_mem_new_with_buffer) \
	X(g_mime_text_part_new_with_subtype) \
	X(g_mime_text_part_set_charset) \
	X(g_object_unref) \
	X(g_type_check_instance_cast) \
	X(g_type_check_instance_is_a) \
	X(internet_address_group_get_members) \
	X(internet_address_group_get_type) \
	X(internet_address_list_append) \
	X(internet_address_list_get_address) \
	X(internet_address_list_length) \
	X(internet_address_list_parse) \
	X(internet_address_mailbox_get_addr) \
	X(internet_address_mailbox_get_type) \
	X(internet_address_set_charset)

struct gmime_api {
#define X(f) typeof(f) *f;
	GMIME_FUNCS(X)
#undef X
};
extern struct gmime_api gmime_api;

/*
 * GMime loaded and initialised (g_mime_init()), once a process: 0, or
 * -1 after error() when it cannot be (Debian package libgmime-3.0-0).
 */
int gmime_load(void);

#ifndef GMIME_LOADER
#undef g_date_time_new_from_unix_utc
#define g_date_time_new_from_unix_utc (*gmime_api.g_date_time_new_from_unix_utc)
#undef g_date_time_unref
#define g_date_time_unref (*gmime_api.g_date_time_unref)
#undef g_mime_data_wrapper_new_with_stream
#define g_mime_data_wrapper_new_with_stream (*gmime_api.g_mime_data_wrapper_new_with_stream)
#undef g_mime_format_options_free
#define g_mime_format_options_free (*gmime_api.g_mime_format_options_free)
#undef g_mime_format_options_new
#define g_mime_format_options_new (*gmime_api.g_mime_format_options_new)
#undef g_mime_format_options_set_newline_format
#define g_mime_format_options_set_newline_format (*gmime_api.g_mime_format_options_set_newline_format)
#undef g_mime_init
#define g_mime_init (*gmime_api.g_mime_init)
#undef g_mime_message_get_cc
#define g_mime_message_get_cc (*gmime_api.g_mime_message_get_cc)
#undef g_mime_message_get_from
#define g_mime_message_get_from (*gmime_api.g_mime_message_get_from)
#undef g_mime_message_get_to
#define g_mime_message_get_to (*gmime_api.g_mime_message_get_to)
#undef g_mime_message_new
#define g_mime_message_new (*gmime_api.g_mime_message_new)
#undef g_mime_message_set_date
#define g_mime_message_set_date (*gmime_api.g_mime_message_set_date)
#undef g_mime_message_set_message_id
#define g_mime_message_set_message_id (*gmime_api.g_mime_message_set_message_id)
#undef g_mime_message_set_mime_part
#define g_mime_message_set_mime_part (*gmime_api.g_mime_message_set_mime_part)
#undef g_mime_message_set_subject
#define g_mime_message_set_subject (*gmime_api.g_mime_message_set_subject)
#undef g_mime_multipart_add
#define g_mime_multipart_add (*gmime_api.g_mime_multipart_add)
#undef g_mime_multipart_new_with_subtype
#define g_mime_multipart_new_with_subtype (*gmime_api.g_mime_multipart_new_with_subtype)
#undef g_mime_object_set_disposition
#define g_mime_object_set_disposition (*gmime_api.g_mime_object_set_disposition)
#undef g_mime_object_set_header
#define g_mime_object_set_header (*gmime_api.g_mime_object_set_header)
#undef g_mime_object_write_to_stream
#define g_mime_object_write_to_stream (*gmime_api.g_mime_object_write_to_stream)
#undef g_mime_parser_construct_message
#define g_mime_parser_construct_message (*gmime_api.g_mime_parser_construct_message)
#undef g_mime_parser_new_with_stream
#define g_mime_parser_new_with_stream (*gmime_api.g_mime_parser_new_with_stream)
#undef g_mime_part_new_with_type
#define g_mime_part_new_with_type (*gmime_api.g_mime_part_new_with_type)
#undef g_mime_part_set_content
#define g_mime_part_set_content (*gmime_api.g_mime_part_set_content)
#undef g_mime_part_set_content_encoding
#define g_mime_part_set_content_encoding (*gmime_api.g_mime_part_set_content_encoding)
#undef g_mime_part_set_filename
#define g_mime_part_set_filename (*gmime_api.g_mime_part_set_filename)
#undef g_mime_shutdown
#define g_mime_shutdown (*gmime_api.g_mime_shutdown)
#undef g_mime_stream_mem_get_byte_array
#define g_mime_stream_mem_get_byte_array (*gmime_api.g_mime_stream_mem_get_byte_array)
#undef g_mime_stream_mem_new
#define g_mime_stream_mem_new (*gmime_api.g_mime_stream_mem_new)
#undef g_mime_stream_mem_new_with_buffer
#define g_mime_stream_mem_new_with_buffer (*gmime_api.g_mime_stream_mem_new_with_buffer)
#undef g_mime_text_part_new_with_subtype
#define g_mime_text_part_new_with_subtype (*gmime_api.g_mime_text_part_new_with_subtype)
#undef g_mime_text_part_set_charset
#define g_mime_text_part_set_charset (*gmime_api.g_mime_text_part_set_charset)
#undef g_object_unref
#define g_object_unref (*gmime_api.g_object_unref)
#undef g_type_check_instance_cast
#define g_type_check_instance_cast (*gmime_api.g_type_check_instance_cast)
#undef g_type_check_instance_is_a
#define g_type_check_instance_is_a (*gmime_api.g_type_check_instance_is_a)
#undef internet_address_group_get_members
#define internet_address_group_get_members (*gmime_api.internet_address_group_get_members)
#undef internet_address_group_get_type
#define internet_address_group_get_type (*gmime_api.internet_address_group_get_type)
#undef internet_address_list_append
#define internet_address_list_append (*gmime_api.internet_address_list_append)
#undef internet_address_list_get_address
#define internet_address_list_get_address (*gmime_api.internet_address_list_get_address)
#undef internet_address_list_length
#define internet_address_list_length (*gmime_api.internet_address_list_length)
#undef internet_address_list_parse
#define internet_address_list_parse (*gmime_api.internet_address_list_parse)
#undef internet_address_mailbox_get_addr
#define internet_address_mailbox_get_addr (*gmime_api.internet_address_mailbox_get_addr)
#undef internet_address_mailbox_get_type
#define internet_address_mailbox_get_type (*gmime_api.internet_address_mailbox_get_type)
#undef internet_address_set_charset
#define internet_address_set_charset (*gmime_api.internet_address_set_charset)
#endif

#endif
