/* fuzz_proposal: the output contract's parser (workers/proposal.c) on a model's or an agent's
 * answer: any bytes (an agent's stdout is not even UTF-8 by promise). An accepted answer
 * carries a known family, a kernel within the caps, a hypothesis; a refused one leaves the
 * proposal untouched and says why in a text that can be stored as the round's reject reason
 * (a JSON string). */
#include "fuzz.h"
#include "proposal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct proposal p;
  char err[768];
  int rc;

  proposal_init(&p);
  rc = proposal_parse((const char *)data, size, &p, err, sizeof(err));
  if (rc == 0) {
    FUZZ_CHECK(p.source && p.hypothesis, "accepted without source or hypothesis");
    FUZZ_CHECK(proposal_family_known(p.family), "family %s", p.family);
    FUZZ_CHECK(strlen(p.source) <= PROPOSAL_MAX_SOURCE, "source %zu bytes", strlen(p.source));
    FUZZ_CHECK(strstr(p.source, "class ModelNew"), "no ModelNew");
    FUZZ_CHECK(fuzz_json_text(p.source) && fuzz_json_text(p.hypothesis),
               "accepted text is not UTF-8");
  } else {
    FUZZ_CHECK(rc == -EINVAL, "rc %d", rc);
    FUZZ_CHECK(!p.source && !p.hypothesis && !p.family[0], "a refusal touched the proposal");
    FUZZ_CHECK(err[0], "refused without a reason");
    FUZZ_CHECK(fuzz_json_text(err), "the reject reason is not UTF-8: %s", err);
  }
  proposal_free(&p);
  return 0;
}
