/* torch 1.13's dispatcher messages for ops it cannot run on the meta device (meta_messages.c, generated). */
#ifndef CTORCH_CORE_META_MESSAGES_H
#define CTORCH_CORE_META_MESSAGES_H

typedef struct ct_meta_message {
  const char *aten_op;      /* "aten::equal" */
  const char *const *pool;  /* the distinct lines of all messages (with their newlines) */
  const short *lines;       /* this message's lines: indexes into pool, ending with -1 */
} ct_meta_message;

/* Ends with an entry whose aten_op is NULL. */
extern const ct_meta_message ct__meta_messages[];

#endif
