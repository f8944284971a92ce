/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_qp.h - reliable-connected queue pairs: objects, attributes and the
 * state machine. The data path (requester, responder, completer) runs on
 * the state kept here.
 */
#ifndef MRC_QP_H
#define MRC_QP_H

#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>

#include "core/mrc_cc.h"
#include "core/mrc_loss.h"
#include "core/mrc_stall.h"
#include "core/mrc_path_set.h"
#include "core/mrc_rx_window.h"
#include "core/mrc_tx_rec.h"
#include "core/mrc_tx_window.h"
#include "mrc_av.h"
#include "mrc_net.h"
#include "mrc_queue.h"

struct mrc_cq;
struct mrc_dev;
struct mrc_path;
struct mrc_srq;
struct mrc_read_track;

/* A send WQE the requester has fetched: its private copy and progress. */
struct mrc_swqe {
	struct mrc_send_wqe *wqe;	/* copy of the ring slot (slot_size) */
	u32 msn;			/* message sequence number */
	u32 rsn;			/* receive WQE it consumes (SEND*, WRITE_IMM) */
	u32 first_psn;
	u32 len;			/* message bytes; 0 when it failed the checks */
	u32 npkts;			/* PSNs it occupies */
	u32 next_pkt;			/* first packet not sent yet */
	u32 resp_pkts;			/* READ: distinct response packets */
	u32 first_chunk;		/* READ: its first READ_REQ's chunk (mrc_read_track) */
	unsigned long progress_at;	/* jiffies of the last response */
	u64 atomic_orig;
	bool atomic_done;
	u8 status;			/* ib_wc_status once failed */
};

/* Requester and completer state, under @lock. */
struct mrc_req {
	spinlock_t lock;
	struct mrc_tx_window txw;
	struct mrc_cc cc;		/* how much of txw may be in flight */
	struct mrc_cc read_cc;		/* how many READ responses may be on their way */
	struct mrc_loss loss;		/* when a PSN in flight is lost */
	u64 *txw_map;
	struct mrc_tx_rec *rec;		/* per PSN slot */
	struct mrc_ev_cursor cursor;	/* the QP's walk over its EVs */
	struct mrc_swqe *swqe;		/* per SQ slot */
	u8 *raw;			/* SQ slot copies */
	u32 done;			/* SQ index: next to complete (= ring cons) */
	u32 send;			/* SQ index: next with unsent packets */
	u32 next;			/* SQ index: next to fetch */
	u32 msn;
	u32 rsn;
	u32 rd_atomic;			/* READ/atomic WQEs not completed */
	struct mrc_read_track *reads;	/* READ responses in, per READ_REQ */
	u32 ack_req_psn;		/* the last PSN sent asking for an ACK */
	u64 quiet_since_ns;		/* the last send or progress (tail-loss probes) */
	u32 tlp_probes;			/* tail-loss probes since the last progress */
	u32 retries;			/* timeouts without progress */
	u32 rnr_retries;
	u32 progress_una;		/* una at the last timeout */
	u64 timeout_ns;			/* the last timeout or return resend; 0: none pending */
	u32 returns_left;		/* return resends left for this timeout */
	bool path_returned;		/* the path set heard from the peer since */
	unsigned long rnr_until;	/* jiffies: RNR NAK back-off */
	u32 rnr_psn;			/* resend from here after it */
	bool rnr_pending;
	bool timed_out;
	int tx_cpu;			/* the one CPU this QP's packets leave from */
	/* for netlink's qp-stats: written under @lock, read without it */
	u64 tx_packets;			/* packets sent, retransmissions included */
	u64 tx_retransmits;
	u64 tx_timeouts;		/* retransmit timer expiries with data out */
	struct mrc_stall stall;		/* the oldest PSN's longest wait */
	struct mrc_stall wr_stall;	/* the oldest WQE's, until it completes */
	struct timer_list timer;
	struct hrtimer loss_timer;	/* the next loss deadline (mrc_loss) */
	struct work_struct work;
};

/* A READ the responder is answering (packets still to send). */
struct mrc_read_job {
	u32 psn;
	u32 npkts;
	u32 next;
	u32 offset;
	u32 len;
	u32 msg_len;
	u32 msn;
	u32 rkey;
	u64 va;
};

/* A finished atomic kept to answer duplicates without executing twice. */
struct mrc_atomic_res {
	u32 psn;
	u32 msn;
	u64 orig;
	bool valid;
};

/*
 * What the responder owes once every earlier PSN has arrived: a receive
 * completion, a READ or atomic to execute (in order, after earlier
 * WRITEs are placed), or a fatal NAK.
 */
struct mrc_resp_evt {
	u8 opcode;			/* MRC_OP_*; 0: nothing at this PSN */
	u8 solicited;
	u8 nak;				/* enum mrc_nak_code, 0: none */
	u32 rsn;
	u32 len;			/* message or READ length */
	u32 imm;
	u32 msn;
	u32 rkey;
	u32 offset;			/* READ: first byte asked */
	u32 msg_len;			/* READ: the whole READ's length */
	u64 va;
	u64 swap_add;
	u64 compare;
	u32 resp_psn;			/* READ: the response last sent from this slot */
	bool resp_sent;			/* ... if any since the slot's request */
	u32 resp_ev;			/* ... the EV it took */
	u64 resp_sent_ns;		/* ... and when */
};

/* A receive WQE the responder has taken from the RQ ring. */
struct mrc_rwqe {
	u32 rsn;			/* which message it is bound to */
	bool valid;
	struct mrc_recv_wqe *wqe;	/* copy of the ring slot */
};

/* Responder state, under @lock. */
struct mrc_resp {
	spinlock_t lock;
	struct mrc_rx_window rxw;
	u64 *rxw_map;
	struct mrc_resp_evt *evt;	/* per PSN slot */
	struct mrc_rwqe *rwqe;		/* per RQ slot, or per SRQ WQE held */
	u8 *raw;			/* RQ slot copies */
	u32 nr_rwqe;			/* receive WQE copies (power of 2) */
	bool last_wqe_reached;		/* SRQ: LAST_WQE_REACHED sent */
	u32 rq_base;			/* RQ index of rsn 0 */
	u32 rsn_done;			/* receive completions posted */
	u32 msn_done;			/* messages completed */
	u32 since_ack;			/* new packets since the last ACK */
	struct mrc_ev_tx back;		/* how answers to the last request go (mrc_net_reply_tx) */
	struct mrc_ev_tx ack_back;	/* ... to the ack_turn-th of this batch */
	u32 ack_turn;			/* which packet of a batch its ACK retraces */
	bool ce_seen;			/* one of them came CE-marked: echo it */
	u32 ce_psn;			/* ... the one the echo names */
	bool dup_seen;			/* a PSN came again: the next ACK says which */
	u32 dup_psn;
	u32 ack_psn;			/* the request packet an ACK now answers */
	u32 ack_cum;			/* cum when the last ACK left */
	struct mrc_read_job *reads;	/* ring of READ jobs, then one of repeats */
	u32 read_head, read_tail;
	u32 again_head, again_tail;	/* repeated READs: served first */
	struct mrc_atomic_res *atomics;
	u32 atomic_next;
	struct mrc_read_table *read_msgs;	/* READs accepted, for repeats */
	struct mrc_ev_cursor cursor;	/* EVs of READ responses */
	struct work_struct work;	/* sends READ responses */
	int tx_cpu;			/* the one CPU READ responses leave from */
};

/* A UD QP's state (mrc_ud.c): sends under req.lock, receives under resp.lock. */
struct mrc_ud {
	u32 qkey;			/* datagrams must carry it (IB_QP_QKEY) */
	u32 psn;			/* the next datagram's; nobody checks it */
	u32 sq_done;			/* SQ index: next to send (= ring cons) */
	u32 rq_done;			/* RQ index: next to take (= ring cons) */
	struct mrc_send_wqe *send_wqe;	/* copy of the send slot at hand */
	struct mrc_recv_wqe *recv_wqe;	/* copy of the receive WQE at hand */
};

struct mrc_qp {
	struct ib_qp ibqp;
	refcount_t refs;		/* receive-path lookups + creation */
	struct completion released;
	bool dying;
	u32 mtu;			/* bytes: path MTU capped by the port */
	u32 window;			/* PSN window (MPR) of both directions */
	struct mrc_req req;		/* RC; a UD QP uses its lock and work only */
	struct mrc_resp resp;		/* RC; a UD QP uses its lock and last_wqe_reached */
	struct mrc_ud ud;		/* UD */
	struct mutex modify_lock;	/* modify_qp / query_qp / destroy */
	spinlock_t state_lock;		/* @state as the data path reads it */
	enum ib_qp_state state;
	struct ib_qp_attr attr;		/* as set by modify_qp */
	struct mrc_av av;		/* the peer, once IB_QP_AV was given */
	struct dst_cache dst_cache;	/* route to it (reset with the AV) */
	struct mrc_path *path;		/* its EVs; set with the AV (see mrc_qp_set_path) */
	u32 profile_id;			/* @path's EV profile */
	u32 bound_profile;		/* named at creation (held), or MRC_PROFILE_DEFAULT */
	union ib_gid dgid;

	struct mrc_cq *scq;
	struct mrc_cq *rcq;
	struct mrc_srq *srq;		/* receives come from here if set */
	bool sq_sig_all;

	spinlock_t post_lock;		/* producer side of a kernel consumer's SQ and RQ */
	struct mrc_queue sq;		/* consumer side: req.lock */
	u32 max_send_sge;
	u32 max_inline;

	struct mrc_queue rq;		/* consumer side: resp.lock */
	u32 max_recv_sge;
};

static inline struct mrc_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);

struct ib_qp *mrc_qp_lookup_ib(struct mrc_dev *mdev, u32 qpn);
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);
enum ib_qp_state mrc_qp_state(struct mrc_qp *qp);
void mrc_qp_error(struct mrc_qp *qp);
void mrc_qp_event(struct mrc_qp *qp, enum ib_event_type type);

/* UD, or the GSI QP (QP 1), which is a UD QP of the kernel's MAD layer. */
static inline bool mrc_qp_is_ud(const struct mrc_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI;
}

static inline struct mrc_dev *mrc_qp_dev(struct mrc_qp *qp)
{
	return container_of(qp->ibqp.device, struct mrc_dev, ib_dev);
}

/* mrc_req.c: the requester */
int mrc_req_init(struct mrc_qp *qp);
void mrc_req_free(struct mrc_qp *qp);
void mrc_req_start(struct mrc_qp *qp);
void mrc_req_kick(struct mrc_qp *qp);
void mrc_req_arm_loss_timer(struct mrc_qp *qp, u64 deadline_ns);
void mrc_req_read_rtt(const struct mrc_qp *qp, struct mrc_read_rtt *read);
bool mrc_req_has_work(const struct mrc_qp *qp);
void mrc_req_run(struct mrc_qp *qp);
void mrc_req_doorbell(struct mrc_qp *qp);
void mrc_req_flush(struct mrc_qp *qp);
void mrc_req_discard(struct mrc_qp *qp);
void mrc_req_stop(struct mrc_qp *qp);
unsigned long mrc_req_rto(const struct mrc_qp *qp);
static inline bool mrc_wqe_is_read(const struct mrc_send_wqe *wqe)
{
	return wqe->opcode == IB_UVERBS_WR_RDMA_READ;
}

static inline bool mrc_wqe_is_atomic(const struct mrc_send_wqe *wqe)
{
	return wqe->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ||
	       wqe->opcode == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD;
}

/* The requester's state of send WQE @index (a running count). */
static inline struct mrc_swqe *mrc_req_swqe(struct mrc_qp *qp, u32 index)
{
	return &qp->req.swqe[index & (qp->sq.num_slots - 1)];
}

bool mrc_req_read_arrived(const struct mrc_qp *qp, const struct mrc_swqe *w, u32 idx);
struct mrc_swqe *mrc_req_find_psn(struct mrc_qp *qp, u32 psn);
void mrc_req_restart_rto(struct mrc_qp *qp);
void mrc_req_wait_rnr(struct mrc_qp *qp, u32 psn, unsigned long until);

/* mrc_comp.c: the completer (responses to our requests, and completion) */
void mrc_comp_complete(struct mrc_qp *qp);
void mrc_comp_retire(struct mrc_qp *qp, struct mrc_swqe *w, u8 status, bool signal);
void mrc_comp_responder_failed(struct mrc_qp *qp, const struct mrc_swqe *failed);
struct mrc_pkt_hdr;
void mrc_comp_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
		   struct sk_buff *skb);

/* mrc_resp.c: the responder */
int mrc_resp_init(struct mrc_qp *qp);
void mrc_resp_free(struct mrc_qp *qp);
void mrc_resp_start(struct mrc_qp *qp);
void mrc_resp_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
		   struct sk_buff *skb, struct mrc_ev_tx *back);
void mrc_resp_flush(struct mrc_qp *qp);
void mrc_resp_discard(struct mrc_qp *qp);
void mrc_resp_stop(struct mrc_qp *qp);

/* mrc_ud.c: UD QPs */
int mrc_ud_init(struct mrc_qp *qp);
void mrc_ud_free(struct mrc_qp *qp);
void mrc_ud_stop(struct mrc_qp *qp);
void mrc_ud_doorbell(struct mrc_qp *qp);
void mrc_ud_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr, struct sk_buff *skb);
void mrc_ud_flush(struct mrc_qp *qp);
void mrc_ud_flush_recv(struct mrc_qp *qp);
void mrc_ud_discard(struct mrc_qp *qp);
int mrc_ud_post_send(struct mrc_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr);

extern struct workqueue_struct *mrc_tx_wq;
const char *mrc_qp_state_name(enum ib_qp_state state);

#endif /* MRC_QP_H */
