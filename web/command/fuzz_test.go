package command

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossrank/crossrank/web/httpx"
)

// FuzzDecodeProposalJSON feeds API bodies to the strict JSON decoder: it
// must never panic, must refuse invalid UTF-8, must answer every refusal
// with 400, and what it accepts must survive a round trip unchanged.
func FuzzDecodeProposalJSON(f *testing.F) {
	for _, seed := range []string{
		`{"ranking":"gpu","entry":"lambda","title":"Add Lambda","new_entry":{"name":{"zh":"兰姆达","en":"Lambda"},"category":"cloud","website":"https://lambda.ai"}}`,
		`{"criterion":"price","to":8,"rationale":"cheap","evidence":["e1"]}`,
		`{"attribute":"billing","to":["hourly","monthly"],"rationale":"r","evidence":["e1"]}`,
		`{"verdict":"approve","revision":1,"verified_evidence":["e1","e2"],"comment":"ok"}`,
		`{"votes":[{"proposal":"p1","revision":1,"verdict":"approve","verified_evidence":["e1"],"comment":"ok"},{"proposal":"p2"}]}`,
		`{"proposals":["p1"],"preview_hash":"00","note":"n"}`,
		`{"proposals":["p1"],"preview_hash":"00","at":"2026-12-01T09:00:00+08:00","note":"n"}`,
		`{"reviewers":["rev","rex"]}`, `{"on":"evidence:e1","reply_to":"c1","body":"why?"}`,
		`{"user":"rev","reason":"I consult for them"}`, `{"up_to":42}`, `{"up_to":-1}`, `{"up_to":18446744073709551616}`,
		`{"id":"01890a5d-ac96-774b-bcce-b302099a8057","title":"\u00e9\ud83d\ude00"}`,
		``, `null`, `[]`, `{"to":null}`, `{"title":"a"} {}`, "{\"title\":\"\xff\"}", `{"title":1e400}`,
		`{"title":"shown","title":"stored"}`, `{"title":"\ud800"}`,
		`{"username":"nina","display_name":"Nina","roles":["editor"]}`, `{"role":"reviewer"}`, `{"name":"ci","expires_days":30}`,
		`{"current_password":"old","new_password":"new","confirm_password":null}`, `{"new_password":"chosen"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecode[OpenInput](t, body)
		checkDecode[ProposeChangeInput](t, body)
		checkDecode[VoteInput](t, body)
		checkDecode[VotesInput](t, body)
		checkDecode[PublishInput](t, body)
		checkDecode[ScheduleInput](t, body)
		checkDecode[CancelScheduleInput](t, body)
		checkDecode[ReviewersInput](t, body)
		checkDecode[CommentInput](t, body)
		checkDecode[ConflictInput](t, body)
		checkDecode[InboxReadInput](t, body)
		checkDecode[InviteInput](t, body)
		checkDecode[RoleInput](t, body)
		checkDecode[ResetInput](t, body)
		checkDecode[TokenIssueInput](t, body)
		checkDecode[PasswordChangeInput](t, body)
	})
}

func checkDecode[In any](t *testing.T, body []byte) {
	var in In
	err := httpx.DecodeJSONBytes(body, &in)
	if err != nil {
		if s := httpx.Status(err); s != http.StatusBadRequest {
			t.Fatalf("%T: %v answers %d, want 400", in, err, s)
		}
		return
	}
	if !utf8.Valid(body) {
		t.Fatalf("%T: accepted invalid UTF-8 %q", in, body)
	}
	again, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("%T: re-encoding %+v: %v", in, in, err)
	}
	var back In
	if err := httpx.DecodeJSONBytes(again, &back); err != nil {
		t.Fatalf("%T: re-decoding %s: %v", in, again, err)
	}
	if !reflect.DeepEqual(in, back) {
		t.Fatalf("%T: round trip changed %+v into %+v", in, in, back)
	}
}

// FuzzParseForm feeds form bodies to the form parser and every action's
// form decoder: no panic; refusals are 400 or 413; accepted forms hold only
// valid UTF-8; a decoder's complaint is a field error (422).
func FuzzParseForm(f *testing.F) {
	for _, seed := range []string{
		"username=alice&password=secret&next=%2Fdesk",
		"cmd_id=01890a5d-ac96-774b-bcce-b302099a8057&claim=fast&excerpt=x&observed_on=2026-01-31&valid_for_days=30",
		"criterion=price&to=8&rationale=r&evidence=e1&evidence=e2",
		"attribute=billing&to=hourly%0Amonthly&rationale=r&evidence=e1",
		"verdict=approve&revision=1&verified_evidence=e1&comment=%E5%A5%BD",
		"new_entry=1&name_zh=%E5%85%B0&name_en=Lambda&category=cloud",
		"revision=abc", "to=99999999999999999999", "a=%ff", "a=%zz", "&&&==", ";", "a=1;b=2",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, httpx.MaxBody)
		fm, err := httpx.ParseForm(r)
		if err != nil {
			if s := httpx.Status(err); s != http.StatusBadRequest && s != http.StatusRequestEntityTooLarge {
				t.Fatalf("%v answers %d", err, s)
			}
			return
		}
		for k, vs := range fm.Values() {
			for _, v := range append(vs, k) {
				if !utf8.ValidString(v) {
					t.Fatalf("accepted invalid UTF-8 %q", v)
				}
			}
		}
		decoders := []func(*httpx.Form){
			func(f *httpx.Form) { var in OpenInput; OpenProposal.Form(f, &in) },
			func(f *httpx.Form) { var in AddEvidenceInput; AddEvidence.Form(f, &in) },
			func(f *httpx.Form) { var in ProposeChangeInput; ProposeChange.Form(f, &in) },
			func(f *httpx.Form) { var in VoteInput; Vote.Form(f, &in) },
			func(f *httpx.Form) { var in PublishInput; Publish.Form(f, &in) },
			func(f *httpx.Form) { var in DismissVetoInput; DismissVeto.Form(f, &in) },
		}
		for _, decode := range decoders {
			f := httpx.NewForm(fm.Values())
			decode(f)
			if f.Err() != nil && httpx.Status(f.Err()) != http.StatusUnprocessableEntity {
				t.Fatalf("decoder error %v answers %d", f.Err(), httpx.Status(f.Err()))
			}
		}
	})
}
