package web

import "testing"

func TestCheckPublicURL(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{
		"": true, "https://rank.example": true, "http://localhost:8080/": true, "https://[::1]:8443": true,
		"rank.example": false, "ftp://rank.example": false, "https://rank.example/sub": false,
		"https://rank.example?x=1": false, "https://u:p@rank.example": false, "https://": false, "https://rank.example/#a": false,
	} {
		if got := checkPublicURL(in) == nil; got != ok {
			t.Errorf("checkPublicURL(%q) accepted %v, want %v", in, got, ok)
		}
	}
}
