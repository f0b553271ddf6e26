#ifndef STRLIST_H
#define STRLIST_H
/*
 * The list a repeatable option fills (struct strlist, store/query.h,
 * where the queries read it): its strings are borrowed, argv's.
 */
struct strlist;

/* Append s (borrowed) to l. */
void strlist_add(struct strlist *l, const char *s);
/* Free l's array, not its strings; l is empty again. */
void strlist_release(struct strlist *l);

#endif
