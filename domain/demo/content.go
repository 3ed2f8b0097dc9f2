// Package demo holds the content of the demo ranking, a buyer's guide to GPU
// cloud rental platforms, drawn from one Chinese market overview (see
// SourceName). It is pure data: the seeding flow turns it into commands.
//
// The file is longer than the project's usual ~300 lines because it is a
// single table of editorial content; splitting it by platform would only
// scatter the cross-references (criteria, tags, evidence keys) the tests check.
//
// Sections. Evidence cites the article by section:
//   - "§0": the opening, before the line "1. 智星云…" (the four paths and the
//     list of nine platforms);
//   - "§1"–"§9": from the numbered line "n. <platform>…" up to the next numbered
//     line (the category sub-headings between sections are not cited);
//   - "§10": the closing part, from "GPU算力租赁市场应该如何理解？" to the end,
//     which holds the buyer's six questions.
//
// Scores are illustrative editorial judgments on what the article says; a
// criterion the article does not discuss for a platform is left unscored.
package demo

import "github.com/crossrank/crossrank/events"

// RankingSlug is the demo ranking's id.
const RankingSlug = "gpu-cloud"

// SourceName names the evidence source: the article has no title or URL.
const SourceName = "《GPU算力租赁市场观察》（示例来源文章）"

// SourceURL is empty: the article has no URL; evidence names it instead.
const SourceURL = ""

// Criterion slugs.
const (
	CritDelivery    = "delivery-forms"
	CritGPUs        = "gpu-coverage"
	CritCluster     = "cluster-network-storage"
	CritIntegration = "cloud-integration"
	CritElasticity  = "elasticity-spot"
	CritGraphics    = "graphics-desktop"
	CritOnboarding  = "onboarding"
	CritDataAccess  = "data-access"
)

// Attribute keys.
const (
	AttrDelivery    = "delivery"
	AttrGPUModels   = "gpu-models"
	AttrClusterInfr = "cluster-infra"
	AttrScale       = "scale"
	AttrBilling     = "billing"
	AttrRegions     = "regions"
	AttrIntegration = "integration"
	AttrGraphics    = "graphics"
	AttrWorkloads   = "workloads"
	AttrEnvironment = "environment"
	AttrData        = "data"
)

func tx(zh, en string) events.Text { return events.Text{Zh: zh, En: en} }

// Definition returns the ranking definition.
func Definition() events.RankingDefined {
	return events.RankingDefined{
		Slug:         RankingSlug,
		Illustrative: true,
		Title:        tx("GPU 算力租赁平台观察", "GPU cloud rental platforms"),
		Description: tx(
			"依据一篇中文市场观察文章，按四条交付路径比较九个 GPU 算力租赁平台。评分是编辑依据文章内容作出的示例性判断，每项评分都引用文章原文；文章未谈及的维度不评分（计为 0），因此总分反映的是文章提供的证据，而非平台的全部能力。",
			"Nine GPU cloud rental platforms in four delivery paths, compared from one Chinese market overview. Scores are illustrative editorial judgments on what the article says, each citing its text; a criterion the article does not discuss for a platform is left unscored (counted as 0), so totals reflect the article's evidence, not everything a platform offers.",
		),
		Categories: []events.Category{
			{Slug: "specialist", Name: tx("专业算力平台", "Specialist GPU platforms"),
				Description: tx("提供多种 GPU 及不同资源形态的专业算力平台。", "Specialist compute platforms offering many GPU models and resource forms.")},
			{Slug: "public-cloud", Name: tx("综合公有云", "Public clouds"),
				Description: tx("将 GPU 纳入完整云产品体系的综合公有云。", "General public clouds that fold GPUs into a complete cloud product line.")},
			{Slug: "ai-cloud", Name: tx("AI 算力云", "AI compute clouds"),
				Description: tx("面向大模型训练和推理提供集群能力的 AI 算力云。", "AI clouds providing cluster capacity for large-model training and inference.")},
			{Slug: "lightweight", Name: tx("轻量化平台", "Lightweight platforms"),
				Description: tx("面向开发、科研或图形应用提供轻量化使用环境的平台。", "Platforms offering lightweight environments for development, research or graphics work.")},
		},
		Criteria: []events.Criterion{
			{Slug: CritDelivery, Weight: 15, Name: tx("交付形态", "Delivery forms"),
				Description: tx("可选的资源形态：容器、云主机、裸金属、集群、私有化部署、云桌面等。", "The resource forms on offer: containers, cloud servers, bare metal, clusters, private deployment, cloud desktops and so on.")},
			{Slug: CritGPUs, Weight: 15, Name: tx("GPU 型号覆盖", "GPU model coverage"),
				Description: tx("文章点名的 GPU 型号与加速卡种类，以及库存与地域的限制。", "The GPU models and accelerator kinds the article names, and the limits of stock and regions.")},
			{Slug: CritCluster, Weight: 15, Name: tx("集群网络与并行存储", "Cluster network & parallel storage"),
				Description: tx("多机多卡训练所需的集群交付、RDMA 网络与并行文件存储。", "Cluster delivery, RDMA networking and parallel file storage for multi-node training.")},
			{Slug: CritIntegration, Weight: 15, Name: tx("云生态集成", "Cloud integration"),
				Description: tx("GPU 能否接入现有的云账号、网络、存储与其他云产品或已有设备。", "Whether GPUs join an existing cloud account, network, storage and other products, or hardware already owned.")},
			{Slug: CritElasticity, Weight: 10, Name: tx("弹性与 Spot", "Elasticity & Spot"),
				Description: tx("按需与弹性使用、共享 GPU、Spot 抢占式资源与自动扩缩容。", "On-demand and elastic use, shared GPUs, Spot (preemptible) capacity and autoscaling.")},
			{Slug: CritGraphics, Weight: 10, Name: tx("图形与远程桌面", "Graphics & remote desktop"),
				Description: tx("图形渲染、编解码、图形工作站与远程桌面体验。", "Graphics rendering, video coding, graphics workstations and the remote-desktop experience.")},
			{Slug: CritOnboarding, Weight: 10, Name: tx("上手便利", "Ease of onboarding"),
				Description: tx("首次使用与迁移的门槛：镜像、文档、教程，以及迁移适配的成本。", "How easily a first-time user starts or a project migrates: images, documentation, tutorials, and the cost of porting.")},
			{Slug: CritDataAccess, Weight: 10, Name: tx("数据保留与系统权限", "Data retention & system access"),
				Description: tx("数据能否保留、放在哪里，以及能否获得整机或完整系统权限。", "Whether data is kept and where it lives, and whether whole-machine or full system access is available.")},
		},
		Attributes: attributeDefs(),
		Quorum:     events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true},
	}
}

func val(v, zh, en string) events.AttributeValue {
	return events.AttributeValue{Value: v, Label: tx(zh, en)}
}

func attributeDefs() []events.AttributeDef {
	return []events.AttributeDef{
		{Key: AttrDelivery, Name: tx("交付形态", "Delivery forms"), Values: []events.AttributeValue{
			val("container", "GPU 云容器", "GPU containers"),
			val("cloud-host", "GPU 云主机/云服务器", "GPU cloud servers"),
			val("bare-metal", "裸金属", "Bare metal"),
			val("cluster", "专属集群/训练集群", "Dedicated or training clusters"),
			val("private-deployment", "私有云/私有化部署", "Private cloud or on-premises deployment"),
			val("token-api", "Token 调用", "Token-based model API"),
			val("gpu-sharing", "共享 GPU", "Shared GPUs"),
			val("cloud-desktop", "GPU 云桌面", "GPU cloud desktops"),
			val("graphics-workstation", "云图形工作站", "Cloud graphics workstations"),
		}},
		{Key: AttrGPUModels, Name: tx("GPU 型号", "GPU models"), Values: []events.AttributeValue{
			val("h100", "H100", "H100"),
			val("a100", "A100", "A100"),
			val("a800", "A800", "A800"),
			val("a6000", "A6000", "A6000"),
			val("a5000", "A5000", "A5000"),
			val("a40", "A40", "A40"),
			val("a30", "A30", "A30"),
			val("v100", "V100", "V100"),
			val("rtx-5090", "RTX 5090", "RTX 5090"),
			val("rtx-4090", "RTX 4090", "RTX 4090"),
			val("rtx-3090", "RTX 3090", "RTX 3090"),
			val("ascend-910b", "昇腾 910B", "Ascend 910B"),
			val("ascend", "昇腾（未注明型号）", "Ascend (model not named)"),
			val("nvidia-h-series", "NVIDIA H 系列", "NVIDIA H series"),
			val("nvidia-a-series", "NVIDIA A 系列", "NVIDIA A series"),
		}},
		{Key: AttrClusterInfr, Name: tx("集群网络与存储", "Cluster network & storage"), Values: []events.AttributeValue{
			val("rdma", "RDMA 网络", "RDMA networking"),
			val("parallel-storage", "并行文件存储", "Parallel file storage"),
		}},
		{Key: AttrScale, Name: tx("规模", "Scale"), Values: []events.AttributeValue{
			val("single-gpu", "单卡", "Single GPU"),
			val("multi-gpu", "多卡", "Multiple GPUs"),
			val("multi-node", "多机多卡/集群", "Multi-node clusters"),
		}},
		{Key: AttrBilling, Name: tx("计费与弹性", "Billing & elasticity"), Values: []events.AttributeValue{
			val("on-demand", "按需", "On demand"),
			val("elastic", "弹性使用", "Elastic use"),
			val("spot", "Spot 抢占式资源", "Spot (preemptible) capacity"),
			val("whole-lease", "整租", "Whole-machine lease"),
			val("long-term", "企业长期算力", "Long-term enterprise capacity"),
			val("autoscaling", "弹性调度与自动扩缩容", "Elastic scheduling and autoscaling"),
		}},
		{Key: AttrRegions, Name: tx("地域", "Regions"), Values: []events.AttributeValue{
			val("overseas", "海外区域", "Overseas regions"),
			val("multi-region", "多地域（型号与库存因地域而异）", "Several regions (models and stock differ)"),
		}},
		{Key: AttrIntegration, Name: tx("云生态集成", "Cloud integration"), Values: []events.AttributeValue{
			val("existing-account", "沿用现有云账号", "Uses the existing cloud account"),
			val("cloud-storage", "云存储/对象存储", "Cloud or object storage"),
			val("cloud-network", "云网络/专有网络", "Cloud network / VPC"),
			val("containers", "容器服务", "Container services"),
			val("database", "数据库", "Databases"),
			val("security", "安全产品", "Security products"),
			val("media-services", "音视频服务", "Audio and video services"),
			val("monitoring", "监控", "Monitoring"),
		}},
		{Key: AttrGraphics, Name: tx("图形能力", "Graphics"), Values: []events.AttributeValue{
			val("rendering", "图形渲染", "Graphics rendering"),
			val("video-codec", "视频编解码", "Video encoding and decoding"),
			val("graphics-workstation", "图形工作站", "Graphics workstations"),
			val("remote-desktop", "远程桌面", "Remote desktop"),
		}},
		{Key: AttrWorkloads, Name: tx("适用负载", "Workloads"), Values: []events.AttributeValue{
			val("training", "训练", "Training"),
			val("inference", "推理", "Inference"),
			val("scientific", "科学计算", "Scientific computing"),
			val("graphics", "图形应用", "Graphics"),
			val("video", "视频处理", "Video processing"),
			val("development", "学习与开发", "Learning and development"),
		}},
		{Key: AttrEnvironment, Name: tx("环境与上手", "Environment & onboarding"), Values: []events.AttributeValue{
			val("prebuilt-images", "基础/场景镜像", "Base and scenario images"),
			val("custom-images", "自定义镜像", "Custom images"),
			val("image-registry", "镜像仓库", "Image registry"),
			val("dl-environment", "随交付的深度学习环境", "Deep-learning environment delivered"),
			val("official-docs", "官方文档（驱动、CUDA 等）", "Official docs (drivers, CUDA…)"),
			val("tutorials", "入门教程", "Beginner tutorials"),
		}},
		{Key: AttrData, Name: tx("数据与权限", "Data & access"), Values: []events.AttributeValue{
			val("disk-retention", "可选磁盘保留方式", "Choice of disk retention"),
			val("full-system", "整机独占与完整权限", "Whole machine with full access"),
		}},
	}
}

// weights lists a profile in the criteria's order: delivery, GPUs, cluster,
// integration, elasticity, graphics, onboarding, data access.
func weights(w ...int) map[string]int {
	slugs := []string{CritDelivery, CritGPUs, CritCluster, CritIntegration, CritElasticity, CritGraphics, CritOnboarding, CritDataAccess}
	m := make(map[string]int, len(slugs))
	for i, s := range slugs {
		m[s] = w[i]
	}
	return m
}

func opt(value, zh, en string, reqs ...events.Requirement) events.FilterOption {
	return events.FilterOption{Value: value, Label: tx(zh, en), Requires: reqs}
}

func req(attr string, anyOf []string, zh, en string) events.Requirement {
	return events.Requirement{Attribute: attr, AnyOf: anyOf, Reason: tx(zh, en)}
}

// Scenarios returns the weight profiles and the needs-filters for the buyer's
// six questions at the end of the article (§10). A requirement hides an entry
// whose attributes, as the article supports them, hold none of the tags; its
// reason says so without claiming more than the article does.
// Methodology is the demo ranking's whole methodology, as its definition
// proposal proposes it.
func Methodology() events.Methodology {
	d, s := Definition(), Scenarios()
	return events.Methodology{Title: d.Title, Description: d.Description, Categories: d.Categories,
		Criteria: d.Criteria, Attributes: d.Attributes, Scenarios: s.Scenarios, Filters: s.Filters,
		Quorum: d.Quorum, Illustrative: d.Illustrative}
}

func Scenarios() events.ScenariosSet {
	return events.ScenariosSet{
		Scenarios: []events.Scenario{
			{Slug: "training", Name: tx("训练", "Training"), Weights: weights(15, 20, 30, 5, 5, 0, 5, 20),
				Description: tx("训练关注吞吐和多卡扩展效率；多机多卡时，并行存储和网络可能比单张 GPU 参数更重要。",
					"Training cares about throughput and multi-GPU scaling; across nodes, parallel storage and networking may matter more than a single GPU's specs.")},
			{Slug: "inference", Name: tx("推理", "Inference"), Weights: weights(15, 15, 5, 15, 30, 0, 10, 10),
				Description: tx("推理关注并发、延迟及弹性启动速度；请求波动时，共享 GPU 与自动扩缩容更有价值。",
					"Inference cares about concurrency, latency and how fast capacity starts; with fluctuating requests, shared GPUs and autoscaling pay off.")},
			{Slug: "scientific", Name: tx("科学计算", "Scientific computing"), Weights: weights(15, 20, 20, 10, 10, 5, 5, 15),
				Description: tx("科学计算看重可选的 GPU 与加速卡、多节点能力，以及对机器和数据的控制。",
					"Scientific computing values the choice of GPUs and accelerators, multi-node capacity, and control over machines and data.")},
			{Slug: "graphics", Name: tx("图形应用", "Graphics"), Weights: weights(10, 10, 0, 10, 5, 50, 10, 5),
				Description: tx("设计与影视团队更关注远程画面、输入延迟、大文件传输、软件兼容和图形驱动。",
					"Design and film teams care most about the remote picture, input latency, large file transfer, software compatibility and graphics drivers.")},
		},
		Filters: []events.Filter{
			{Key: "workload", Question: tx("是训练、推理、科学计算还是图形应用？", "Training, inference, scientific computing or graphics?"), Options: []events.FilterOption{
				opt("training", "训练", "Training", req(AttrWorkloads, []string{"training"},
					"文中未提及其用于训练", "The article does not mention training on it")),
				opt("inference", "推理", "Inference", req(AttrWorkloads, []string{"inference"},
					"文中未提及其用于推理", "The article does not mention inference on it")),
				opt("scientific", "科学计算", "Scientific computing", req(AttrWorkloads, []string{"scientific"},
					"文中未提及其用于科学计算", "The article does not mention scientific computing on it")),
				opt("graphics", "图形应用", "Graphics", req(AttrWorkloads, []string{"graphics"},
					"文中未提及其用于图形应用", "The article does not mention graphics work on it")),
			}},
			{Key: "scale", Question: tx("需要单卡、多卡还是多节点集群？", "One GPU, several GPUs, or a multi-node cluster?"), Options: []events.FilterOption{
				opt("single-gpu", "单卡", "One GPU"),
				opt("multi-gpu", "多卡", "Several GPUs", req(AttrScale, []string{"multi-gpu", "multi-node"},
					"文中未提及多卡使用", "The article does not mention multi-GPU use")),
				opt("multi-node", "多节点集群", "Multi-node cluster", req(AttrScale, []string{"multi-node"},
					"文中未提及多机多卡集群", "The article does not mention multi-node clusters")),
			}},
			{Key: "system-access", Question: tx("是否需要完整系统权限？", "Do you need full system access?"), Options: []events.FilterOption{
				opt("not-needed", "不需要", "No"),
				opt("root", "需要（云主机或裸金属）", "Yes (cloud server or bare metal)", req(AttrDelivery, []string{"cloud-host", "bare-metal"},
					"不提供云主机或裸金属", "Offers no cloud server or bare metal")),
				opt("whole-machine", "需要整机独占（裸金属）", "Yes, a whole machine (bare metal)", req(AttrDelivery, []string{"bare-metal"},
					"不提供裸金属", "Does not offer bare metal")),
			}},
			{Key: "data-location", Question: tx("数据位于哪里？", "Where does your data live?"), Options: []events.FilterOption{
				opt("anywhere", "没有限制", "No constraint"),
				opt("public-cloud", "已在公有云中", "Already in a public cloud", req(AttrIntegration, []string{"cloud-storage"},
					"文中未提及 GPU 接入现有云存储与网络", "The article does not mention GPUs joining an existing cloud's storage and network")),
				opt("overseas", "海外", "Overseas", req(AttrRegions, []string{"overseas"},
					"文中未提及海外区域", "The article mentions no overseas regions")),
				opt("on-premises", "自有机房或设备", "On our own premises or hardware", req(AttrDelivery, []string{"private-deployment"},
					"不提供私有云或私有化部署", "Offers no private cloud or on-premises deployment")),
			}},
			{Key: "interruptible", Question: tx("任务能否中断和恢复？", "Can the job be interrupted and resumed?"), Options: []events.FilterOption{
				opt("no", "不能中断", "No, it must run through"),
				opt("yes", "可以，能保存检查点并恢复（考虑 Spot）", "Yes, it checkpoints and resumes (consider Spot)", req(AttrBilling, []string{"spot"},
					"文中未提及 Spot 抢占式资源", "The article mentions no Spot (preemptible) capacity")),
			}},
			{Key: "duration", Question: tx("资源需要使用几小时、几个月还是长期保留？", "For hours, for months, or kept long-term?"), Options: []events.FilterOption{
				opt("hours", "几小时", "Hours", req(AttrBilling, []string{"on-demand", "elastic", "spot"},
					"文中未提及按需、弹性或 Spot 使用", "The article mentions no on-demand, elastic or Spot use")),
				opt("months", "几个月", "Months", req(AttrBilling, []string{"whole-lease", "long-term"},
					"文中未提及整租或长期算力", "The article mentions no whole-machine lease or long-term capacity")),
				opt("long-term", "长期保留", "Kept long-term", req(AttrDelivery, []string{"bare-metal", "cluster", "private-deployment"},
					"不提供裸金属、专属集群或私有化部署", "Offers no bare metal, dedicated cluster or private deployment")),
			}},
		},
	}
}
