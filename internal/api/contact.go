package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/contact"
	"github.com/nameport/nameport/internal/ratelimit"
)

// The contact form and the admins' Inbox tab: visitors' contact requests
// (the landing page's form) and contact messages, stored, mailed to the
// site's contact address, read and answered by admins.

type ContactSubmitInput struct {
	Body struct {
		Kind     string `json:"kind,omitempty" required:"false" enum:"request,message" doc:"request (default): the landing page's form; message: a contact message"`
		Company  string `json:"company,omitempty" required:"false" doc:"A request's company (required for a request)"`
		Name     string `json:"name,omitempty" required:"false" doc:"A message's sender (required for a message)"`
		Email    string `json:"email" required:"false" doc:"Where to answer (required)"`
		Interest string `json:"interest,omitempty" required:"false" doc:"A request's interest: end-user (default), registrar, api or other"`
		Subject  string `json:"subject,omitempty" required:"false" doc:"A message's subject (optional)"`
		Message  string `json:"message,omitempty" required:"false" doc:"At least 10 characters; optional for a request"`
	}
}

// contactMessageBody is a contact request or message as admins see it.
type contactMessageBody struct {
	ID         int64      `json:"id"`
	Kind       string     `json:"kind" enum:"request,message"`
	Name       string     `json:"name" doc:"The sender's name, or a request's company"`
	Email      string     `json:"email"`
	Interest   string     `json:"interest,omitempty" enum:"end-user,registrar,api,other" doc:"Requests only"`
	Subject    string     `json:"subject,omitempty" doc:"Messages only; may be empty"`
	Message    string     `json:"message" doc:"What the sender wrote; may be empty for a request"`
	Status     string     `json:"status" enum:"new,read,answered"`
	Reply      string     `json:"reply,omitempty" doc:"The admin's answer, mailed to the sender"`
	AnsweredBy string     `json:"answeredBy,omitempty" doc:"The answering admin's username"`
	AnsweredAt *time.Time `json:"answeredAt"`
	CreatedAt  time.Time  `json:"createdAt"`
}

func toContactMessageBody(l *contact.Listing) contactMessageBody {
	b := contactMessageBody{ID: l.ID, Kind: l.Kind, Name: l.Name, Email: l.Email, Message: l.Body, Status: l.Status,
		Reply: l.Reply, AnsweredBy: l.AnsweredByName, AnsweredAt: timeOrNil(l.AnsweredAt), CreatedAt: l.CreatedAt}
	if l.Kind == contact.KindRequest {
		b.Interest = l.Topic
	} else {
		b.Subject = l.Topic
	}
	return b
}

type AdminContactMessagesInput struct {
	Status   string `query:"status" doc:"Only messages with this status (new, read or answered); empty for all"`
	Page     int    `query:"page" minimum:"0" doc:"From 1"`
	PageSize int    `query:"pageSize" minimum:"0" maximum:"100" doc:"Default 25"`
}

type contactMessagePage struct {
	Messages []contactMessageBody `json:"messages"`
	Total    int                  `json:"total" doc:"Messages matching the filter, on every page"`
	Unread   int                  `json:"unread" doc:"Messages no admin has opened yet, whatever the filter"`
	Page     int                  `json:"page"`
	PageSize int                  `json:"pageSize"`
}

type AdminContactMessagesOutput struct {
	Body envelope[contactMessagePage]
}

type AdminContactMessageOutput struct {
	Body envelope[contactMessageBody]
}

type AdminContactReplyInput struct {
	ID   int64 `path:"id"`
	Body struct {
		Message string `json:"message" required:"false" doc:"The answer, mailed to the sender"`
	}
}

// contactHandlers are the handlers of the contact form and the Inbox tab.
type contactHandlers struct {
	inbox *contact.Service
}

func addContactRoutes(a huma.API, inbox *contact.Service) {
	h := contactHandlers{inbox}
	register(a, accessOptional.countedAs(ratelimit.ContactMessages).visitorsCountedAs(ratelimit.ContactMessages), huma.Operation{
		OperationID: "contact-submit", Method: http.MethodPost, Path: "/api/contact", Tags: []string{"Contact"},
		Summary: "Send a contact request or message",
		Description: "Stores the landing page's contact request (company, email, interest, optional message) or a " +
			"contact message (name, email, optional subject, message) for admins to answer, and mails it to the " +
			"site's contact address. The answer says only that it was received. Limited per client network " +
			"(per account when signed in).",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusUnprocessableEntity},
	}, h.submit)

	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-contact-messages-list", Method: http.MethodGet, Path: "/api/admin/contact-messages",
		Tags: []string{"Admin"}, Summary: "The contact inbox",
		Description: "Contact requests and messages, newest first, page by page, with the count of unread ones.",
		Errors:      append(adminOnly, http.StatusUnprocessableEntity),
	}, h.list)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-contact-message-get", Method: http.MethodGet, Path: "/api/admin/contact-messages/{id}",
		Tags: []string{"Admin"}, Summary: "Read a contact message",
		Description: "One contact request or message; a new one becomes read.",
		Errors:      append(adminOnly, http.StatusNotFound),
	}, h.open)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-contact-message-reply", Method: http.MethodPost, Path: "/api/admin/contact-messages/{id}/reply",
		Tags: []string{"Admin"}, Summary: "Answer a contact message",
		Description: "Mails the answer to the sender, stores it and marks the message answered; audited. " +
			"A message is answered once.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.reply)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-contact-message-delete", Method: http.MethodDelete, Path: "/api/admin/contact-messages/{id}",
		Tags: []string{"Admin"}, Summary: "Delete a contact message", Description: "Removes it from the inbox; audited.",
		Errors: append(adminOnly, http.StatusNotFound),
	}, h.delete)
}

// submit stores a contact request or message; the answer reveals nothing
// of it.
func (h contactHandlers) submit(ctx context.Context, in *ContactSubmitInput) (*DoneOutput, error) {
	b := in.Body
	input := contact.Input{Kind: b.Kind, Name: b.Company, Email: b.Email, Interest: b.Interest, Message: b.Message}
	if input.Kind == "" {
		input.Kind = contact.KindRequest
	}
	// A field of the other kind is refused, never ignored.
	misplaced := func(field, kind string) error {
		return apperr.OnField(apperr.New(apperr.Invalid, "%s is not a field of a contact %s", field, kind), field)
	}
	switch {
	case input.Kind == contact.KindRequest && b.Name != "":
		return nil, fail(ctx, misplaced("name", "request"))
	case input.Kind == contact.KindRequest && b.Subject != "":
		return nil, fail(ctx, misplaced("subject", "request"))
	case input.Kind == contact.KindMessage && b.Company != "":
		return nil, fail(ctx, misplaced("company", "message"))
	case input.Kind == contact.KindMessage && b.Interest != "":
		return nil, fail(ctx, misplaced("interest", "message"))
	}
	if input.Kind == contact.KindMessage {
		input.Name, input.Subject = b.Name, b.Subject
	}
	if _, err := h.inbox.Submit(ctx, input); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// list returns a page of the inbox.
func (h contactHandlers) list(ctx context.Context, in *AdminContactMessagesInput) (*AdminContactMessagesOutput, error) {
	page, err := h.inbox.List(ctx, contact.Query{Status: in.Status, Page: in.Page, PageSize: in.PageSize})
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := contactMessagePage{Messages: make([]contactMessageBody, len(page.Messages)), Total: page.Total,
		Unread: page.Unread, Page: page.Page, PageSize: page.PageSize}
	for i := range page.Messages {
		out.Messages[i] = toContactMessageBody(&page.Messages[i])
	}
	return &AdminContactMessagesOutput{Body: ok(out)}, nil
}

// open returns one message, marking it read.
func (h contactHandlers) open(ctx context.Context, in *IDInput) (*AdminContactMessageOutput, error) {
	l, err := h.inbox.Open(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &AdminContactMessageOutput{Body: ok(toContactMessageBody(l))}, nil
}

// reply mails the admin's answer to the sender.
func (h contactHandlers) reply(ctx context.Context, in *AdminContactReplyInput) (*AdminContactMessageOutput, error) {
	l, err := h.inbox.Reply(ctx, sessionUser(ctx).ID, in.ID, in.Body.Message)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &AdminContactMessageOutput{Body: ok(toContactMessageBody(l))}, nil
}

// delete removes a message from the inbox.
func (h contactHandlers) delete(ctx context.Context, in *IDInput) (*DoneOutput, error) {
	if err := h.inbox.Delete(ctx, sessionUser(ctx).ID, in.ID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
